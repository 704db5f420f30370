/**
 * Test entry: the real app (as the stdio transport builds it) served over HTTP by
 * serveHttp, one McpServer per MCP session. Prints the listener's URL on stdout, then serves
 * until SIGTERM. Argument 1 is JSON `{token?, limits?}`; the rest are tmuxwright flags.
 */
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/app.ts";
import { createSessionServer } from "../../src/mcp/server.ts";
import { serveHttp, StubBackend } from "../../src/http/mod.ts";

const [settings, ...flags] = Deno.args;
const { token, limits } = JSON.parse(settings);
const config = loadConfig(flags);
const app = await createApp(config);

const server = await serveHttp({
  hostname: "127.0.0.1",
  port: 0,
  token,
  limits,
  bridge: new StubBackend(),
  createMcpServer: () => createSessionServer(app),
});
console.log(server.url);

Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown();
  await app.close().catch(() => {});
  Deno.exit(0);
});
