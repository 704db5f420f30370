import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { unreachable } from "../../tmux/ssh.ts";
import { ToolError, toToolError } from "../errors.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { EndSignals } from "./end_signals.ts";
import { Removals } from "./removals.ts";

/** The pane's program exited: its status (128+N after signal N), the signal, and whether it had before the wait. */
export interface PaneExit {
  exitCode: number | null;
  signal: number | null;
  already: boolean;
}

/** Why a pane can no longer answer: its program exited (the pane stays), it was removed, or tmux is out of reach. */
export type PaneEnd =
  | ({ kind: "exited" } & PaneExit)
  | { kind: "gone" | "unreachable"; error: ToolError; already: boolean };

/** What a check found, before it is known whether it held when the wait began. */
type Found = { kind: "exited"; exitCode: number | null; signal: number | null } | { kind: "gone" };

/** Notifications after which a watched pane may be gone or dead: each prompts one check. */
const CHECK_ON = new Set([
  "%window-close",
  "%unlinked-window-close",
  "%layout-change",
  "%window-pane-changed",
  "%sessions-changed",
  "%window-renamed",
  "%unlinked-window-renamed",
  "%exit",
]);
/** tmux can mark a pane dead a moment before it has reaped the process and knows the status. */
const UNREAPED_MS = 500;
/**
 * Where tmux gives no event: a program's exit on a host link (no hooks there), or a process tmux
 * 3.3a has not reaped (it marks the pane dead, but `pane-died` waits for the reap, which can wait
 * for the next SIGCHLD of any child). A check this often, while waits run, is the backstop.
 */
const BACKSTOP_MS = 1000;
const FORMAT = "#{pane_id}\x1f#{pane_dead}\x1f#{pane_dead_status}\x1f#{pane_dead_signal}";

interface Watcher {
  pane: PaneInfo;
  onEnd: (end: PaneEnd) => void;
  /** A check has seen the pane answer since the watch began (an end after that is not `already`). */
  checked: boolean;
}

/**
 * The engine's one source of "this pane can no longer answer", one per tmux server (host link).
 * Every wait subscribes while it runs. Driven by events: the control connection's notifications
 * (a window closed, a layout changed), the hooks of EndSignals (a program exited), the loss of the
 * connection; each event costs one pipelined `display-message` per watched pane. While waits run,
 * a check once a second is the backstop where tmux gives no event (BACKSTOP_MS). A lost
 * connection ends every wait at once: TMUX_UNAVAILABLE when the tmux server is gone (nothing here
 * reconnects: that would start a new one), HOST_UNREACHABLE for a host link.
 */
export class PaneEnds {
  readonly #watchers = new Set<Watcher>();
  readonly #unreaped = new Map<string, number>();
  readonly #signals: EndSignals;
  #backstop: ReturnType<typeof setInterval> | undefined;
  #checking = false;
  #again = false;
  /** A no-op job is on its way to make tmux reap exited children. */
  #nudging = false;

  readonly #removals: Removals;

  constructor(private readonly tmux: TmuxServer) {
    this.#removals = new Removals(tmux);
    this.#signals = new EndSignals(tmux, () => this.#requestCheck());
    tmux.onNotification((name) => CHECK_ON.has(name) && this.#requestCheck());
    tmux.onStatus((status) => status.kind === "lost" && void this.#lost(status.reason));
  }

  /** Calls `onEnd` once, when the pane can no longer answer (at once if it already cannot); returns the unsubscribe. */
  watch(pane: PaneInfo, onEnd: (end: PaneEnd) => void): () => void {
    const watcher: Watcher = { pane, onEnd, checked: false };
    this.#watchers.add(watcher);
    this.#backstop ??= setInterval(() => this.#requestCheck(), BACKSTOP_MS);
    Deno.unrefTimer(this.#backstop);
    // Hooks first, then the first check: an end between the two is seen by one or the other.
    this.#signals.add(pane).catch(() => {}).finally(() => this.#requestCheck());
    return () => this.#drop(watcher);
  }

  /** Records that a call of this server (`tool`) is about to remove these panes, windows or sessions. */
  removing(ids: readonly string[], tool: string): Promise<void> {
    return this.#removals.removing(ids, tool);
  }

  /** Waits being watched now (for tests and diagnostics). */
  get watching(): number {
    return this.#watchers.size;
  }

  /** At shutdown: the hooks are removed and the waiter ended (waits still running end with the server). */
  close(): void {
    for (const watcher of [...this.#watchers]) this.#drop(watcher);
    this.#signals.close();
  }

  #drop(watcher: Watcher): void {
    if (!this.#watchers.delete(watcher)) return;
    if (this.#watchers.size === 0) {
      clearInterval(this.#backstop);
      this.#backstop = undefined;
    }
    const id = watcher.pane.paneId;
    if ([...this.#watchers].some((w) => w.pane.paneId === id)) return;
    this.#signals.remove(id);
    this.#unreaped.delete(id);
  }

  #end(watcher: Watcher, end: PaneEnd): void {
    this.#drop(watcher);
    try {
      watcher.onEnd(end);
    } catch (error) {
      console.error("[tmuxwright] a wait's end handler failed:", error);
    }
  }

  #requestCheck(reconnect = false): void {
    if (this.#watchers.size === 0) return;
    if (this.#checking) return void (this.#again = true);
    this.#checking = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.#check(reconnect).catch(() => {});
        } while (this.#again && this.#watchers.size > 0);
      } finally {
        this.#checking = false;
      }
    })();
  }

  async #check(reconnect: boolean): Promise<void> {
    if (!this.tmux.connected && !reconnect) return; // its loss ends the waits; never restart tmux from here
    const watchers = [...this.#watchers];
    const ids = [...new Set(watchers.map((w) => w.pane.paneId))];
    const replies = await Promise.allSettled(
      await this.tmux.pipeline(ids.map((id) => ["display-message", "-p", "-t", id, FORMAT])),
    );
    let nudge = false;
    for (const [i, id] of ids.entries()) {
      const found = this.#endOf(id, replies[i]);
      if (found === "unreaped") nudge = true;
      const end = found === null || found === "unreaped"
        ? null
        : found.kind === "gone"
        ? { kind: "gone" as const, error: await this.#goneError(id) }
        : found;
      for (const watcher of watchers) {
        if (watcher.pane.paneId !== id) continue;
        if (end !== null) this.#end(watcher, { ...end, already: !watcher.checked });
        else watcher.checked = true;
      }
    }
    if (!nudge) return;
    // A missed SIGCHLD can leave the process unreaped: a no-op job makes tmux reap every exited child.
    // Not awaited: a tmux client that hangs (3.3a, seen under load) must not stop every later check.
    if (!this.#nudging) {
      this.#nudging = true;
      void this.tmux.oneShot("run-shell", ":").catch(() => {}).finally(() => this.#nudging = false);
    }
    setTimeout(() => this.#requestCheck(), 20);
  }

  /** What one pane's reply says: alive (null), not reaped yet, exited, or gone. */
  #endOf(
    id: string,
    reply: PromiseSettledResult<string[]>,
  ): Found | "unreaped" | null {
    if (reply.status === "rejected") {
      const gone = (reply.reason as { kind?: string }).kind === "target_gone";
      return gone ? { kind: "gone" } : null;
    }
    // tmux 3.3a answers for a pane that no longer exists with empty fields and exit 0.
    const [paneId, dead, status, signal] = (reply.value[0] ?? "").split("\x1f");
    if (paneId !== id) return { kind: "gone" };
    if (dead !== "1") return null;
    const code = /^\d+$/.test(status ?? "") ? Number(status) : null;
    const sig = /^\d+$/.test(signal ?? "") ? Number(signal) : null;
    if (code === null && sig === null) {
      const since = this.#unreaped.get(id) ?? performance.now();
      this.#unreaped.set(id, since);
      if (performance.now() - since < UNREAPED_MS) return "unreaped";
    }
    return { kind: "exited", exitCode: code ?? (sig === null ? null : 128 + sig), signal: sig };
  }

  async #goneError(paneId: string): Promise<ToolError> {
    const pane = [...this.#watchers].find((w) => w.pane.paneId === paneId)?.pane;
    const ids = [paneId, pane?.windowId, pane?.sessionId].filter((id): id is string => id !== undefined);
    return new ToolError(
      "PANE_GONE",
      `Pane ${paneId} is gone while the call waited on it: ${await this.#removals.who(ids)}`,
      pane?.logPath
        ? `Its output stays readable: read_logs pane_id=${paneId}.`
        : "list_panes shows the panes that remain.",
    );
  }

  async #lost(reason: string): Promise<void> {
    if (this.#watchers.size === 0) return;
    let error: ToolError;
    if (this.tmux.remote) {
      error = toToolError(unreachable(this.tmux.remote.host, this.tmux.remote.destination, reason));
    } else {
      // The connection can drop while tmux lives (a stuck client is replaced): ask tmux apart from it.
      const alive = await this.tmux.oneShot("display-message", "-p", "ok").then(() => true, () => false);
      if (alive) return this.#requestCheck(true);
      error = toToolError(new TmuxError("server_gone", `the tmux server ended (${reason})`));
    }
    for (const watcher of [...this.#watchers]) this.#end(watcher, { kind: "unreachable", error, already: false });
  }
}
