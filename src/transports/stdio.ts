import type { Config } from "../config.ts";
import { createApp } from "../app.ts";
import { createServer } from "../mcp/server.ts";
import { McpServices, taskAfter } from "../mcp/services.ts";
import { listenedUris, ListenFeeds } from "../mcp/resources/mod.ts";
import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, serveStdio as serveEras } from "../mcp/sdk.ts";
import { StdioTransport } from "./stdio_transport.ts";
import { onStop } from "./shutdown.ts";

/**
 * Serves MCP over stdio until stdin closes, stdout closes (the client went away), or a signal
 * arrives; then removes the workspace and exits 0. The connection's first message picks its era
 * (the SDK's serveStdio): `initialize` is 2025-11-25, `server/discover` or a request with the
 * `_meta` envelope is 2026-07-28 (docs/design/mcp_2026.md).
 */
export async function serveStdio(config: Readonly<Config>): Promise<void> {
  const app = await createApp(config);
  const reap: { timer?: ReturnType<typeof setTimeout> } = {};
  const services = new McpServices(app, { taskAfterMs: taskAfter(readEnv("TMUXWRIGHT_TASK_AFTER_MS")) });

  const stop = onStop(() => {
    clearTimeout(reap.timer);
    services.close();
    return app.close();
  });

  // The 2026 era's `subscriptions/listen` streams are the SDK's; the panes they name are followed while they are open.
  const listens: { feeds: ListenFeeds | null } = { feeds: null };
  const observe = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === "subscriptions/listen") {
      listens.feeds?.open(JSON.stringify(message.id), listenedUris(message.params));
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      listens.feeds?.close(JSON.stringify((message.params as { requestId?: unknown } | undefined)?.requestId));
    }
  };
  const transport = new StdioTransport((why) => void stop(why), undefined, undefined, undefined, observe);
  serveEras((unit) => {
    listens.feeds = null;
    return createServer(app, {
      era: unit.era,
      services,
      onSubscriptions: (subscriptions) => listens.feeds = new ListenFeeds(subscriptions, (line) => console.error(line)),
    });
  }, { transport, onerror: (error) => console.error(`[tmuxwright] MCP: ${error.message}`) });
  // After the connection opened, so its client hears about what was removed (also on stderr), and
  // after the client's first requests: the reap starts tmux, which on a busy machine delayed the
  // answers to initialize and tools/list (docs/BENCHMARKS.md, Install).
  reap.timer = setTimeout(() => app.workspace.reapStale().catch(() => {}), REAP_AFTER_MS);
}

/** When the stale-workspace reap starts, after the stdio connection opened. */
const REAP_AFTER_MS = 1_000;

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
