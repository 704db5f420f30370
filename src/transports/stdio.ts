import type { Config } from "../config.ts";
import { createApp } from "../app.ts";
import { createServer } from "../mcp/server.ts";
import { StdioTransport } from "./stdio_transport.ts";
import { onStop } from "./shutdown.ts";

/**
 * Serves MCP over stdio until stdin closes, stdout closes (the client went away), or a signal
 * arrives; then removes the workspace and exits 0.
 */
export async function serveStdio(config: Readonly<Config>): Promise<void> {
  const app = await createApp(config);

  const stop = onStop(() => app.close());

  await createServer(app).connect(new StdioTransport((why) => void stop(why)));
  // After connecting, so the client's connection hears about what was removed (also on stderr).
  app.workspace.reapStale().catch(() => {});
}
