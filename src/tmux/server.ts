import { ControlClient, type ControlHandlers } from "./control.ts";
import { tmuxOneShotChecked } from "./oneshot.ts";
import { SessionGuard } from "./session_guard.ts";

/**
 * One tmux server (one socket): a lazily opened, persistent control connection plus the
 * one-shot path. If tmux exits or the connection breaks, in-flight calls fail and the next
 * call reconnects (running `prepare` again, which recreates the session to attach to).
 */
export class TmuxServer {
  #client: ControlClient | null = null;
  #connecting: Promise<ControlClient> | null = null;
  readonly #notificationListeners = new Set<(name: string, args: string) => void>();

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
    return client.run(args);
  }

  /** Runs several commands pipelined in one write; resolves when all replied (rejects on the first error). */
  async batch(commands: readonly string[][]): Promise<string[][]> {
    const client = await this.#connection();
    const replies = commands.map((args) => client.run(args));
    const settled = await Promise.allSettled(replies);
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<string[]>).value);
  }

  /** A separate tmux process: for start-up, shutdown and anything that must not block the connection. */
  oneShot(...args: string[]): Promise<string> {
    return tmuxOneShotChecked([...this.socketArgs, ...args]);
  }

  onNotification(listener: (name: string, args: string) => void): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client) await client.close();
  }

  kill(): void {
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
    const handlers: ControlHandlers = {
      notification: (name, args) => this.#notificationListeners.forEach((l) => l(name, args)),
    };
    this.#client = await this.sessionGuard.run(() => ControlClient.connect(this.socketArgs, session, handlers));
    return this.#client;
  }
}
