import process from "node:process";
import type { Config } from "../config.ts";
import { createApp } from "../app.ts";
import { createServer } from "../mcp/server.ts";
import { StdioServerTransport } from "../mcp/sdk.ts";

const SHUTDOWN_BUDGET_MS = 800;

/** Serves MCP over stdio until stdin closes or a signal arrives, then removes the workspace. */
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
      console.error("[tmuxwright] cleanup failed:", error);
    }
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => stop(signal));
  // StdioServerTransport does not watch for EOF; a server with timers would otherwise linger.
  process.stdin.on("end", () => stop("stdin closed"));
  process.stdin.on("close", () => stop("stdin closed"));

  await createServer(app).connect(new StdioServerTransport());
  // After connecting, so the client's connection hears about what was removed (also on stderr).
  app.workspace.reapStale().catch(() => {});
}
