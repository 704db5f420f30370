import { ControlClient } from "../../tmux/control.ts";

type Listener = (bytes: Uint8Array) => void;

// A read of 16 KiB or more of %output means a flood: the next read waits 10 ms (tmux holds the
// output meanwhile), so a firehose costs few large reads. Sparse output keeps its latency.
const FLOOD_PAUSE = { bytes: 16 * 1024, ms: 10 };

interface Tap {
  session: string;
  client: Promise<ControlClient>;
  listeners: Map<string, Set<Listener>>;
  /** Panes already switched off on this client (so an unwanted pane is switched off once). */
  off: Set<string>;
  closed: boolean;
}

/**
 * `%output` for panes this server did not create. tmux sends `%output` only for panes of the
 * session a control client is attached to, and `no-output` silences every pane of a client
 * (a per-pane `-A %N:on` does not override it). So each watched session gets its own control
 * client, opened when the first wait on one of its panes starts and closed when the last ends.
 * The client attaches with no-output, switches every other pane off, then turns output on;
 * a pane that appears later is switched off at its first `%output`.
 */
export class SessionTaps {
  readonly #taps = new Map<string, Tap>();

  /** `relayRoot`: where this machine's control clients keep their link's fifos (see TmuxServer); null: none. */
  constructor(private readonly socketArgs: readonly string[], private readonly relayRoot: string | null) {}

  /** Calls `onBytes` with what `paneId` (in session `session`) writes from now on. */
  async subscribe(session: string, paneId: string, onBytes: Listener): Promise<{ close(): void }> {
    let tap = this.#taps.get(session);
    if (!tap || tap.closed) tap = this.#open(session, paneId);
    let set = tap.listeners.get(paneId);
    const first = !set;
    if (!set) tap.listeners.set(paneId, set = new Set());
    set.add(onBytes);
    const current = tap;
    try {
      const client = await current.client;
      if (first) {
        current.off.delete(paneId);
        await refresh(client, "-A", `${paneId}:on`);
      }
    } catch (error) {
      this.#remove(current, paneId, onBytes);
      throw error;
    }
    return { close: () => this.#remove(current, paneId, onBytes) };
  }

  /** Number of open session clients (for tests and diagnostics). */
  get openClients(): number {
    return this.#taps.size;
  }

  close(): void {
    for (const tap of this.#taps.values()) this.#closeTap(tap);
  }

  #open(session: string, paneId: string): Tap {
    const tap: Tap = { session, client: null!, listeners: new Map(), off: new Set(), closed: false };
    tap.client = (async () => {
      // Behind the link script: its attach and its end take the tmux server's session lock.
      const client: ControlClient = await ControlClient.connect(this.socketArgs, session, {
        output: (id, bytes) => this.#deliver(tap, client, id, bytes),
        floodPause: FLOOD_PAUSE,
        closed: () => {
          tap.closed = true;
          if (this.#taps.get(session) === tap) this.#taps.delete(session);
        },
      }, this.relayRoot);
      await attached(client);
      const panes = await client.run(["list-panes", "-s", "-t", `=${session}`, "-F", "#{pane_id}"]);
      const others = panes.filter((id) => id !== paneId && /^%\d+$/.test(id));
      await Promise.all([
        ...others.map((id) => refresh(client, "-A", `${id}:off`)),
        refresh(client, "-f", "!no-output"),
      ]);
      for (const id of others) tap.off.add(id);
      return client;
    })();
    tap.client.catch(() => {
      tap.closed = true;
      if (this.#taps.get(session) === tap) this.#taps.delete(session);
    });
    this.#taps.set(session, tap);
    return tap;
  }

  #deliver(tap: Tap, client: ControlClient, paneId: string, bytes: Uint8Array): void {
    const set = tap.listeners.get(paneId);
    if (set) {
      for (const listener of set) listener(bytes);
    } else if (!tap.off.has(paneId)) {
      tap.off.add(paneId);
      refresh(client, "-A", `${paneId}:off`).catch(() => {});
    }
  }

  #remove(tap: Tap, paneId: string, listener: Listener): void {
    const set = tap.listeners.get(paneId);
    if (!set?.delete(listener)) return;
    if (set.size > 0) return;
    tap.listeners.delete(paneId);
    if (tap.listeners.size === 0) {
      this.#closeTap(tap);
      return;
    }
    tap.off.add(paneId);
    tap.client.then((c) => refresh(c, "-A", `${paneId}:off`)).catch(() => {});
  }

  #closeTap(tap: Tap): void {
    if (this.#taps.get(tap.session) === tap) this.#taps.delete(tap.session);
    tap.closed = true;
    // Its link script ends it under the session lock (other control clients are told: a tmux 3.3a crash).
    tap.client.then((c) => c.closeWithin(2000)).catch(() => {});
  }
}

/**
 * `refresh-client` with an explicit `-t`: without it tmux applies the command to its "current"
 * client, which can be another client (the shared connection, with no-output) while this one
 * is still attaching.
 */
function refresh(client: ControlClient, ...args: string[]): Promise<string[]> {
  return client.run(["refresh-client", "-t", client.clientName, ...args]);
}

/** Waits until tmux lists this client as attached (the attach from argv can lag its first replies). */
async function attached(client: ControlClient): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const clients = await client.run(["list-clients", "-F", "#{client_name}"]);
    if (clients.includes(client.clientName)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`tmux control client ${client.clientName} did not attach`);
}
