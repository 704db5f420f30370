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

  private constructor(readonly start: number, readonly logged: boolean) {
    this.#received = start;
  }

  static async open(output: PaneOutput, pane: PaneInfo): Promise<PaneStream> {
    const logged = output.followsLog(pane);
    const stream = new PaneStream(logged ? await logSize(pane.logPath!) : 0, logged);
    const subscription = await output.subscribe(
      pane,
      (bytes) => stream.#deliver(bytes),
      logged ? stream.start : undefined,
    );
    stream.#close = () => subscription.close();
    return stream;
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
