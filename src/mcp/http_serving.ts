import type { App } from "../app.ts";
import type { McpServer } from "./sdk.ts";
import { createServer } from "./server.ts";
import type { McpServices } from "./services.ts";
import { listenedUris, ListenFeeds, Subscriptions } from "./resources/mod.ts";

/** The SDK's publish side of `subscriptions/listen` (createMcpHandler's `notify`). */
export interface ChangeNotifier {
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** Open listen streams over HTTP share one server-wide set of followed panes. */
const HTTP_MAX_SUBSCRIPTIONS = 1024;

/**
 * The 2026 era over HTTP (docs/design/mcp_2026.md): an McpServer per request, the panes that
 * open `subscriptions/listen` streams name followed while they are open, and the pane set's
 * changes published to the streams that asked for them.
 */
export function modernHttpServing(app: App, services: McpServices) {
  let feeds: ListenFeeds | null = null;
  let subscriptions: Subscriptions | null = null;
  const log = (line: string) => console.error(line);
  return {
    createServer: (): McpServer => createServer(app, { era: "modern", perRequest: true, services }),
    listen(uris: string[], notify: ChangeNotifier): () => void {
      if (uris.length === 0) return () => {};
      subscriptions ??= new Subscriptions(app, (uri) => notify.resourceUpdated(uri), HTTP_MAX_SUBSCRIPTIONS);
      feeds ??= new ListenFeeds(subscriptions, log);
      const key = crypto.randomUUID();
      feeds.open(key, uris);
      return () => feeds?.close(key);
    },
    watch(notify: ChangeNotifier): () => void {
      const unsubscribe = app.events.subscribe((event) => {
        if (event.kind !== "panes-changed") return;
        notify.resourcesChanged();
        subscriptions?.panesChanged();
      });
      return () => {
        unsubscribe();
        feeds?.closeAll();
        subscriptions?.close();
      };
    },
    listenedUris,
  };
}
