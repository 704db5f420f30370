import { ControlClient, type ControlHandlers } from "./control.ts";
import { tmuxOneShotChecked } from "./oneshot.ts";
import { SessionGuard } from "./session_guard.ts";

/** What happened to the connection, for the server's log: (re)connects, losses, slow commands. */
export type TmuxStatus =
  | { kind: "connected"; reconnect: boolean }
  | { kind: "lost"; reason: string }
  | { kind: "slow"; command: string; ms: number };

/** A command on the control connection normally answers in well under a millisecond. */
export const SLOW_COMMAND_MS = 500;

/**
 * One tmux server (one socket): a lazily opened, persistent control connection plus the
 * one-shot path. If tmux exits or the connection breaks, in-flight calls fail and the next
 * call reconnects (running `prepare` again, which recreates the session to attach to).
 */
export class TmuxServer {
  #client: ControlClient | null = null;
  #connecting: Promise<ControlClient> | null = null;
  readonly #notificationListeners = new Set<(name: string, args: string) => void>();
  readonly #statusListeners = new Set<(status: TmuxStatus) => void>();
  #connections = 0;
  #stopping = false;

  constructor(
    readonly socketArgs: readonly string[],
    /** Makes sure the session to attach to exists; returns its name. */
    private readonly prepare: () => Promise<string>,
    /** Keeps session creation and removal apart from control clients attaching (a tmux 3.3a crash). */
    readonly sessionGuard: SessionGuard = new SessionGuard(null),
  ) {}

  /** Runs one command on the control connection. */
  async run(...args: string[]): Promise<string[]> {
    const client = await this.#connection();
    return this.#timed(client, args);
  }

  /** Runs several commands pipelined in one write; resolves when all replied (rejects on the first error). */
  async batch(commands: readonly string[][]): Promise<string[][]> {
    const settled = await Promise.allSettled(await this.pipeline(commands));
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<string[]>).value);
  }

  /** Runs several commands pipelined in one write; one reply per command, each settling as it arrives. */
  async pipeline(commands: readonly string[][]): Promise<Promise<string[]>[]> {
    const client = await this.#connection();
    const started = performance.now();
    return client.runMany(commands).map((reply, i) => this.#timedReply(reply, commands[i], started));
  }

  /** A separate tmux process: for start-up, shutdown and anything that must not block the connection. */
  oneShot(...args: string[]): Promise<string> {
    return tmuxOneShotChecked([...this.socketArgs, ...args]);
  }

  onNotification(listener: (name: string, args: string) => void): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  /** Connects, reconnects, losses of the connection and slow commands, as they happen. */
  onStatus(listener: (status: TmuxStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#stopping = true;
    const client = this.#client;
    this.#client = null;
    if (client) await client.close();
  }

  kill(): void {
    this.#stopping = true;
    this.#client?.kill();
    this.#client = null;
  }

  #connection(): Promise<ControlClient> {
    if (this.#client?.isOpen) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => this.#connecting = null);
    return this.#connecting;
  }

  async #connect(): Promise<ControlClient> {
    const session = await this.prepare();
    let attached = false;
    const handlers: ControlHandlers = {
      notification: (name, args) => this.#notificationListeners.forEach((l) => l(name, args)),
      closed: (reason) => {
        if (attached && !this.#stopping) this.#status({ kind: "lost", reason });
      },
    };
    this.#client = await this.sessionGuard.run(() => ControlClient.connect(this.socketArgs, session, handlers));
    attached = true;
    this.#status({ kind: "connected", reconnect: this.#connections++ > 0 });
    return this.#client;
  }

  #timed(client: ControlClient, args: readonly string[]): Promise<string[]> {
    return this.#timedReply(client.run(args), args, performance.now());
  }

  async #timedReply(reply: Promise<string[]>, args: readonly string[], started: number): Promise<string[]> {
    try {
      return await reply;
    } finally {
      const ms = performance.now() - started;
      // Only the command's name: its arguments can carry what an agent typed.
      if (ms >= SLOW_COMMAND_MS) this.#status({ kind: "slow", command: args[0] ?? "", ms: Math.round(ms) });
    }
  }

  #status(status: TmuxStatus): void {
    for (const listener of this.#statusListeners) {
      try {
        listener(status);
      } catch { /* a listener's failure is not the connection's */ }
    }
  }
}
