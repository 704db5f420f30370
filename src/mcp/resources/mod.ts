import type { App } from "../../app.ts";
import { PANE_VIEW_MIME, PANE_VIEW_URI, paneViewHtml } from "../apps/pane_view.ts";
import type { ReadResourceResult } from "../sdk.ts";
import type { Connection } from "../connection.ts";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type McpServer,
  ReadResourceRequestSchema,
  type ResourceTemplateEntry,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "../sdk.ts";
import { answering } from "../protocol_errors.ts";
import { CONTENT_LINES, listResources, LOG_LINES, readResource } from "./read.ts";
import { Subscriptions } from "./subscriptions.ts";
import { CONTENT_TEMPLATE, LOG_TEMPLATE, PANE_TEMPLATE } from "./uris.ts";

export { TEMPLATE_URIS } from "./uris.ts";
export { MAX_SUBSCRIPTIONS, UPDATE_INTERVAL_MS } from "./subscriptions.ts";

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

/**
 * Resources for one connection: list, templates, read, subscribe/unsubscribe, and
 * `notifications/resources/list_changed` when the pane set changes. Declared capabilities:
 * `resources: {subscribe: true, listChanged: true}` (see server.ts).
 */
export function registerResources(server: McpServer, app: App, connection: Connection): void {
  const send = (uri: string) => void server.server.sendResourceUpdated({ uri }).catch(() => {});
  const subscriptions = new Subscriptions(app, send);
  connection.onClose(() => subscriptions.close());

  server.server.setRequestHandler(
    ListResourcesRequestSchema,
    () => answering(async () => ({ resources: [...await listResources(app), PANE_VIEW_RESOURCE] })),
  );
  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));
  server.server.setRequestHandler(
    ReadResourceRequestSchema,
    (request) =>
      answering(() =>
        request.params.uri === PANE_VIEW_URI
          ? paneViewHtml().then((text): ReadResourceResult => ({
            contents: [{ uri: PANE_VIEW_URI, mimeType: PANE_VIEW_MIME, text }],
          }))
          : readResource(app, request.params.uri)
      ),
  );
  server.server.setRequestHandler(SubscribeRequestSchema, (request) =>
    answering(async () => {
      await subscriptions.subscribe(request.params.uri);
      return {};
    }));
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });

  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind !== "panes-changed" || connection.closed) return;
    server.server.sendResourceListChanged().catch(() => {});
    subscriptions.panesChanged();
  });
  connection.onClose(unsubscribe);
}
