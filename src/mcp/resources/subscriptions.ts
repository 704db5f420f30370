import type { App } from "../../app.ts";
import { ToolError } from "../../engine/errors.ts";
import { resolvePane } from "../../engine/panes/mod.ts";
import { resolveLog } from "../../engine/logs/mod.ts";
import type { OutputSubscription } from "../../engine/output/mod.ts";
import { parseUri } from "./uris.ts";
import { Throttle } from "./throttle.ts";
import { logScope } from "./read.ts";
import { appOnHost, hostPaneId, splitPaneRef } from "../hosts.ts";

/** Updates per pane are sent at most this often: a quiet pane's first output is reported at once. */
export const UPDATE_INTERVAL_MS = 50;
/** Bounds what one client can hold open (each pane costs an output subscription). */
export const MAX_SUBSCRIPTIONS = 100;

/** One pane's output, shared by every subscribed URI that names it (content and log). */
interface PaneFeed {
  uris: Set<string>;
  throttle: Throttle;
  output: Promise<OutputSubscription>;
}

/**
 * One connection's `resources/subscribe` state. Pane content and log URIs are driven by the
 * pane's output events (the log follower for owned panes, `%output` for others), never by
 * polling, and rate-limited per pane; the sessions URI follows the pane set. Unsubscribing the
 * last URI of a pane, or closing, releases its output subscription.
 */
export class Subscriptions {
  /** Subscribed URI → the pane it follows, "sessions", or null (a gone pane's log: never updates). */
  readonly #uris = new Map<string, string | null>();
  readonly #feeds = new Map<string, PaneFeed>();
  #closed = false;

  constructor(
    private readonly app: App,
    private readonly send: (uri: string) => void,
    private readonly max = MAX_SUBSCRIPTIONS,
  ) {}

  async subscribe(uri: string): Promise<void> {
    if (this.#uris.has(uri)) return;
    if (this.#uris.size >= this.max) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot subscribe to ${JSON.stringify(uri)}: this connection already holds ${this.max} subscriptions`,
        "Unsubscribe from resources you no longer read first.",
      );
    }
    const target = parseUri(uri);
    if (target.kind === "sessions") return void this.#uris.set(uri, "sessions");
    if (target.kind === "pane") {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot subscribe to ${JSON.stringify(uri)}: pane facts are read on demand`,
        `Subscribe to ${uri}/content for new output, or rely on notifications/resources/list_changed.`,
      );
    }
    const { host, ref } = splitPaneRef(this.app, target.ref);
    const on = appOnHost(this.app, host);
    const pane = target.kind === "content"
      ? await resolvePane(on.tmux, ref, on.workspace.instance)
      : (await resolveLog(on.tmux, logScope(on), ref)).pane;
    if (this.#uris.has(uri) || this.#closed) return; // subscribed meanwhile, or the client left
    if (pane === null) return void this.#uris.set(uri, null);
    const key = hostPaneId(host, pane.paneId)!;
    let feed = this.#feeds.get(key);
    if (!feed) {
      const throttle = new Throttle(UPDATE_INTERVAL_MS, () => this.#updated(key));
      feed = {
        uris: new Set(),
        throttle,
        output: on.output.subscribe(pane, () => throttle.poke(), { borrow: true }),
      };
      this.#feeds.set(key, feed);
    }
    feed.uris.add(uri);
    this.#uris.set(uri, key);
    try {
      await feed.output;
    } catch (error) {
      this.unsubscribe(uri);
      throw error;
    }
  }

  unsubscribe(uri: string): void {
    const paneId = this.#uris.get(uri);
    this.#uris.delete(uri);
    const feed = paneId ? this.#feeds.get(paneId) : undefined;
    if (!feed) return;
    feed.uris.delete(uri);
    if (feed.uris.size > 0) return;
    this.#feeds.delete(paneId!);
    release(feed);
  }

  /** The pane set changed: the sessions resource did too. */
  panesChanged(): void {
    for (const [uri, target] of this.#uris) if (target === "sessions") this.send(uri);
  }

  close(): void {
    this.#closed = true;
    for (const feed of this.#feeds.values()) release(feed);
    this.#feeds.clear();
    this.#uris.clear();
  }

  #updated(paneId: string): void {
    for (const uri of this.#feeds.get(paneId)?.uris ?? []) this.send(uri);
  }
}

function release(feed: PaneFeed): void {
  feed.throttle.close();
  feed.output.then((subscription) => subscription.close(), () => {});
}
