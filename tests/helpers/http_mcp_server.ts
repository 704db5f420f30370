/**
 * Test entry: the real engine (as src/serve.ts builds it for stdio) served over HTTP by
 * serveHttp, one McpServer per MCP session. Prints the listener's URL on stdout, then serves
 * until SIGTERM. Argument 1 is JSON `{token?, limits?}`; the rest are tmuxwright flags.
 */
import { loadConfig } from "../../src/config.ts";
import { AuditLog } from "../../src/audit/audit.ts";
import { Workspace } from "../../src/engine/workspace.ts";
import type { Engine } from "../../src/mcp/context.ts";
import { createServer } from "../../src/mcp/server.ts";
import { PaneOutput } from "../../src/engine/output/source.ts";
import { ProcReader } from "../../src/engine/proc_reader.ts";
import { logDir } from "../../src/engine/output/log_files.ts";
import { serveHttp, StubBackend } from "../../src/http/mod.ts";

const [settings, ...flags] = Deno.args;
const { token, limits } = JSON.parse(settings);
const config = loadConfig(flags);
const audit = await AuditLog.open({ file: config.audit, fullDir: config.auditFull, payloads: config.auditPayloads });
const workspace = new Workspace(config);
const output = new PaneOutput(workspace.tmux, logDir(config.stateDir));
const proc = new ProcReader(workspace.tmux, config.stateDir);
const engine: Engine = { config, workspace, tmux: workspace.tmux, audit, output, proc };

const server = await serveHttp({
  hostname: "127.0.0.1",
  port: 0,
  token,
  limits,
  bridge: new StubBackend(),
  createMcpServer: () => createServer(engine),
});
console.log(server.url);

Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown();
  await workspace.shutdown().catch(() => {});
  output.close();
  audit.close();
  Deno.exit(0);
});
