import type { Subscriptions } from "./subscriptions.ts";

/**
 * The resource URIs of open `subscriptions/listen` streams (MCP 2026-07-28), over one
 * Subscriptions: each URI is followed while any open stream names it. The SDK owns the streams and
 * their filtering; this only makes sure the panes they name are followed (and no longer, once
 * their streams end).
 */
export class ListenFeeds {
  readonly #streams = new Map<string, string[]>();
  readonly #counts = new Map<string, number>();

  constructor(private readonly subscriptions: Subscriptions, private readonly log: (line: string) => void) {}

  /** A stream opened with these `resourceSubscriptions`; `key` names it until `close`. */
  open(key: string, uris: readonly string[]): void {
    if (this.#streams.has(key)) this.close(key);
    const unique = [...new Set(uris)];
    this.#streams.set(key, unique);
    for (const uri of unique) {
      const count = this.#counts.get(uri) ?? 0;
      this.#counts.set(uri, count + 1);
      if (count > 0) continue;
      // A URI the server cannot follow (a pane that is gone, a malformed URI) simply never updates.
      this.subscriptions.subscribe(uri).catch((error) =>
        this.log(`[tmuxwright] subscriptions/listen: not following ${uri}: ${error?.message ?? error}`)
      );
    }
  }

  close(key: string): void {
    for (const uri of this.#streams.get(key) ?? []) {
      const count = (this.#counts.get(uri) ?? 1) - 1;
      if (count > 0) {
        this.#counts.set(uri, count);
        continue;
      }
      this.#counts.delete(uri);
      this.subscriptions.unsubscribe(uri);
    }
    this.#streams.delete(key);
  }

  closeAll(): void {
    for (const key of [...this.#streams.keys()]) this.close(key);
  }
}

/** The `resourceSubscriptions` of a `subscriptions/listen` request's filter (empty when it names none). */
export function listenedUris(params: unknown): string[] {
  const filter = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications;
  const uris = filter?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}
