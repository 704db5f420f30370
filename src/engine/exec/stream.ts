import { logSize, type PaneOutput } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";

type Listener = (bytes: Uint8Array, offset: number) => void;

/**
 * A live subscription to one pane's output. Offsets are stream offsets: for a pane with a log,
 * the log's own byte offsets (so a range of a command's output is a range `read_logs` returns);
 * for other panes, bytes counted from the subscription's start.
 */
export class PaneStream {
  #received: number;
  readonly #listeners = new Set<Listener>();
  readonly #waiters = new Set<() => void>();
  #close: () => void = () => {};
  #closed = false;

  /** `start`: the log's end when opened; bytes from `from` (a look-back) come first. */
  private constructor(readonly start: number, readonly logged: boolean, from: number) {
    this.#received = from;
  }

  /**
   * Subscribes at the log's end, or `lookBack` bytes before it (`listener` gets those first: the
   * tail of what the pane wrote, read by the follower in the same reads as what comes next).
   */
  static async open(
    output: PaneOutput,
    pane: PaneInfo,
    options: { lookBack?: number; listener?: Listener } = {},
  ): Promise<PaneStream> {
    const logged = output.followsLog(pane);
    const end = logged ? await logSize(pane.logPath!) : 0;
    const from = Math.max(0, end - (logged ? options.lookBack ?? 0 : 0));
    const stream = new PaneStream(end, logged, from);
    if (options.listener) stream.listen(options.listener);
    const subscription = await output.subscribe(pane, (bytes) => stream.#deliver(bytes), logged ? from : undefined);
    stream.#close = () => subscription.close();
    return stream;
  }

  /** Resolves once the look-back bytes (everything before `start`) have arrived. */
  async caughtUp(signal?: AbortSignal): Promise<void> {
    while (this.#received < this.start && !this.#closed) {
      signal?.throwIfAborted();
      await Promise.race([this.changed(), new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  }

  /** Stream offset just after the last byte received. */
  get received(): number {
    return this.#received;
  }

  /** Calls `listener` with every later chunk and its offset; returns a function that stops it. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when new bytes arrive. */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => this.#waiters.add(resolve));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#close();
    this.#listeners.clear();
  }

  #deliver(bytes: Uint8Array): void {
    const offset = this.#received;
    this.#received += bytes.length;
    for (const listener of this.#listeners) listener(bytes, offset);
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }
}
