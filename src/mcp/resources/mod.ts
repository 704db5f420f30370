import type { App } from "../../app.ts";
import { PANE_VIEW_MIME, PANE_VIEW_URI, paneViewHtml } from "../apps/pane_view.ts";
import type { ReadResourceResult } from "../sdk.ts";
import type { Connection } from "../connection.ts";
import type { McpServer, ResourceTemplateEntry, ServerContext } from "../sdk.ts";
import { answering, ProtocolError, RESOURCE_NOT_FOUND } from "../protocol_errors.ts";
import { CONTENT_LINES, listResources, LOG_LINES, readResource } from "./read.ts";
import { Subscriptions } from "./subscriptions.ts";
import { CONTENT_TEMPLATE, LOG_TEMPLATE, PANE_TEMPLATE } from "./uris.ts";

export { TEMPLATE_URIS } from "./uris.ts";
export { MAX_SUBSCRIPTIONS, Subscriptions, UPDATE_INTERVAL_MS } from "./subscriptions.ts";
export { listenedUris, ListenFeeds } from "./listen.ts";

const TEMPLATES: ResourceTemplateEntry[] = [
  {
    uriTemplate: PANE_TEMPLATE,
    name: "pane",
    title: "Pane facts",
    description: "ids, name, status, exit code, command, cwd, size; pane_id is %N (written %25N) or the pane's name",
    mimeType: "application/json",
  },
  {
    uriTemplate: CONTENT_TEMPLATE,
    name: "pane-content",
    title: "Pane output",
    description: `the last ${CONTENT_LINES} lines of output as text; subscribe for notifications/resources/updated`,
    mimeType: "text/plain",
  },
  {
    uriTemplate: LOG_TEMPLATE,
    name: "pane-log",
    title: "Pane log",
    description:
      `the last ${LOG_LINES} lines of a logged pane's durable log (also after the pane is gone); subscribable`,
    mimeType: "text/plain",
  },
];

/** The MCP App view of pane tools' results (see src/mcp/apps/pane_view.ts). */
const PANE_VIEW_RESOURCE = {
  uri: PANE_VIEW_URI,
  name: "pane-view",
  title: "Pane view (MCP App): a tool result's pane, live",
  mimeType: PANE_VIEW_MIME,
};

/** How a server's resources are served: its era, and whether it serves one connection or one request. */
export interface ResourceServing {
  era: "legacy" | "modern";
  /** A 2026-era HTTP request: list and read only (its transport follows the pane set and the listens). */
  perRequest: boolean;
  /** A 2026-era HTTP request: the app as its caller's workspace handle (in `_meta`) names it, for pane names. */
  appOf?: (ctx: ServerContext) => Promise<App>;
}

/**
 * Resources for one server: list, templates, read; for a connection also the pane set's
 * `notifications/resources/list_changed` and pane updates, asked for with `resources/subscribe`
 * (2025) or, in the 2026 era, by the connection's `subscriptions/listen` streams (the returned
 * Subscriptions; the SDK routes the notifications to the streams that asked). Declared
 * capabilities: `resources: {subscribe: true, listChanged: true}` (see server.ts).
 */
export function registerResources(
  server: McpServer,
  shared: App,
  connection: Connection,
  serving: ResourceServing = { era: "legacy", perRequest: false },
): Subscriptions | null {
  server.server.setRequestHandler(
    "resources/list",
    () => answering(async () => ({ resources: [...await listResources(shared), PANE_VIEW_RESOURCE] })),
  );
  server.server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: TEMPLATES }));
  server.server.setRequestHandler("resources/read", async (request, ctx) => {
    const app = await serving.appOf?.(ctx) ?? shared;
    try {
      return await answering(() =>
        request.params.uri === PANE_VIEW_URI
          ? paneViewHtml().then((text): ReadResourceResult => ({
            contents: [{ uri: PANE_VIEW_URI, mimeType: PANE_VIEW_MIME, text }],
          }))
          : readResource(app, request.params.uri)
      );
    } catch (error) {
      // A missing resource: the SDK sends -32002 as -32602 in both eras (2026-07-28's code), so the URI
      // as `data` (SEP-2164) is what tells a client "not here"; a URI this server does not serve is not here either.
      const missing = error instanceof ProtocolError && (error.code === RESOURCE_NOT_FOUND || error.code === -32602);
      throw missing ? new ProtocolError(error.code, error.message, { uri: request.params.uri }) : error;
    }
  });
  if (serving.perRequest) return null;

  const send = (uri: string) => void server.server.sendResourceUpdated({ uri }).catch(() => {});
  const subscriptions = new Subscriptions(shared, send);
  connection.onClose(() => subscriptions.close());
  if (serving.era === "legacy") {
    server.server.setRequestHandler("resources/subscribe", (request) =>
      answering(async () => {
        await subscriptions.subscribe(request.params.uri);
        return {};
      }));
    server.server.setRequestHandler("resources/unsubscribe", (request) => {
      subscriptions.unsubscribe(request.params.uri);
      return {};
    });
  }
  const unsubscribe = shared.events.subscribe((event) => {
    if (event.kind !== "panes-changed" || connection.closed) return;
    server.server.sendResourceListChanged().catch(() => {});
    subscriptions.panesChanged();
  });
  connection.onClose(unsubscribe);
  return subscriptions;
}
