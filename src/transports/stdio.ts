import process from "node:process";
import type { Config } from "../cli/config.ts";
import { AuditLog } from "../audit/audit.ts";
import { Workspace } from "../engine/panes/workspace.ts";
import type { Engine } from "../mcp/context.ts";
import { createServer } from "../mcp/server.ts";
import { PaneOutput } from "../engine/output/source.ts";
import { ProcReader } from "../engine/watch/proc_reader.ts";
import { logDir } from "../engine/output/log_files.ts";
import { StdioServerTransport } from "../mcp/sdk.ts";

const SHUTDOWN_BUDGET_MS = 800;

/** Serves MCP over stdio until stdin closes or a signal arrives, then removes the workspace. */
export async function serveStdio(config: Readonly<Config>): Promise<void> {
  const audit = await AuditLog.open({ file: config.audit, fullDir: config.auditFull, payloads: config.auditPayloads });
  const workspace = new Workspace(config);
  const output = new PaneOutput(workspace.tmux, logDir(config.stateDir));
  const proc = new ProcReader(workspace.tmux, config.stateDir);
  const engine: Engine = { config, workspace, tmux: workspace.tmux, audit, output, proc };

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`[tmuxwright] stopping: ${why}`);
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_BUDGET_MS);
    try {
      await workspace.shutdown();
    } catch (error) {
      console.error("[tmuxwright] cleanup failed:", error);
    }
    output.close();
    audit.close();
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => stop(signal));
  // StdioServerTransport does not watch for EOF; a server with timers would otherwise linger.
  process.stdin.on("end", () => stop("stdin closed"));
  process.stdin.on("close", () => stop("stdin closed"));

  workspace.reapStale().then(
    (reaped) => reaped.length > 0 && console.error(`[tmuxwright] removed stale workspaces: ${reaped.join(", ")}`),
    () => {},
  );
  const server = createServer(engine);
  await server.connect(new StdioServerTransport());
}
