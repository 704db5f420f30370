import type { Config } from "../config.ts";
import { createApp } from "../app.ts";
import { createServer } from "../mcp/server.ts";
import { StdioTransport } from "./stdio_transport.ts";

const SHUTDOWN_BUDGET_MS = 800;

/**
 * Serves MCP over stdio until stdin closes, stdout closes (the client went away), or a signal
 * arrives; then removes the workspace and exits 0.
 */
export async function serveStdio(config: Readonly<Config>): Promise<void> {
  const app = await createApp(config);

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`[tmuxwright] stopping: ${why}`);
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_BUDGET_MS);
    try {
      await app.close();
    } catch (error) {
      console.error(`[tmuxwright] cleanup failed: ${(error as Error).message}`);
    }
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => stop(signal));

  await createServer(app).connect(new StdioTransport((why) => void stop(why)));
  // After connecting, so the client's connection hears about what was removed (also on stderr).
  app.workspace.reapStale().catch(() => {});
}
