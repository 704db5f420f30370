/**
 * One client connection (one McpServer). Holds what must be released when it closes (event
 * stream subscriptions, resource subscriptions) and names events that belong to it alone.
 */
export class Connection {
  /** Opaque; tags events (a refused call, a watch's trigger) that belong to this connection. */
  readonly id: string = crypto.randomUUID();
  readonly #cleanups: (() => void)[] = [];
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `cleanup` when the connection closes (at once if it already has). */
  onClose(cleanup: () => void): void {
    if (this.#closed) cleanup();
    else this.#cleanups.push(cleanup);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch (error) {
        console.error("[tmuxwright] releasing a connection's resource failed:", error);
      }
    }
  }

  /** Server-wide events concern every connection; tagged ones only the connection they name. */
  concerns(origin: string | undefined): boolean {
    return origin === undefined || origin === this.id;
  }
}
