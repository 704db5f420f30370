import type { McpServer } from "./sdk.ts";
import type { App } from "../app.ts";
import type { Connection } from "./connection.ts";

/**
 * MCP logging: every log event of the server's event stream that concerns this connection
 * becomes a `notifications/message`. The SDK answers `logging/setLevel` and drops messages below
 * the level the client set (keyed by the transport's session id; until a level is set, all are
 * sent). The same events go to stderr from the App.
 */
export function forwardLogs(server: McpServer, app: App, connection: Connection): void {
  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind !== "log" || !connection.concerns(event.origin) || connection.closed) return;
    server.sendLoggingMessage(
      { level: event.level, logger: event.logger, data: event.message },
      server.server.transport?.sessionId,
    ).catch(() => {}); // the client went away; the connection's close releases this listener
  });
  connection.onClose(unsubscribe);
}
