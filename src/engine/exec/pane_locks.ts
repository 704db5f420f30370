/** One command at a time per pane: calls queue in arrival order; different panes run in parallel. */
export class PaneLocks {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #depth = new Map<string, number>();

  /** Resolves with a release function once every earlier holder of this pane has released it. */
  async acquire(paneId: string, signal?: AbortSignal): Promise<() => void> {
    const previous = this.#tails.get(paneId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => release = resolve);
    const tail = previous.then(() => mine);
    this.#tails.set(paneId, tail);
    this.#depth.set(paneId, (this.#depth.get(paneId) ?? 0) + 1);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      release();
      const left = (this.#depth.get(paneId) ?? 1) - 1;
      if (left === 0) {
        this.#depth.delete(paneId);
        if (this.#tails.get(paneId) === tail) this.#tails.delete(paneId);
      } else this.#depth.set(paneId, left);
    };
    if (signal?.aborted) {
      done();
      signal.throwIfAborted();
    }
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    try {
      await Promise.race([previous, aborted]);
    } catch (error) {
      done(); // our slot passes straight on once the earlier holder releases
      throw error;
    }
    return done;
  }

  /** Whether a call holds or waits for this pane. */
  busy(paneId: string): boolean {
    return (this.#depth.get(paneId) ?? 0) > 0;
  }
}
