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
  const reap: { timer?: ReturnType<typeof setTimeout> } = {};

  const stop = onStop(() => {
    clearTimeout(reap.timer);
    return app.close();
  });

  await createServer(app).connect(new StdioTransport((why) => void stop(why)));
  // After connecting, so the client's connection hears about what was removed (also on stderr),
  // and after the client's first requests: the reap starts tmux, which on a busy machine delayed
  // the answers to initialize and tools/list (docs/BENCHMARKS.md, Install).
  reap.timer = setTimeout(() => app.workspace.reapStale().catch(() => {}), REAP_AFTER_MS);
}

/** When the stale-workspace reap starts, after the stdio connection opened. */
const REAP_AFTER_MS = 1_000;
