import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import { CallToolResultSchema } from "./helpers/sdk_client.ts";
import type { ExecResult } from "./helpers/results.ts";

const TOKEN = "mcp-test-token";
const AUTH = { authorization: `Bearer ${TOKEN}` };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

function text(result: unknown): string {
  const parsed = CallToolResultSchema.parse(result);
  const first = parsed.content[0];
  return first?.type === "text" ? first.text : "";
}

const rawInit = (server: HttpMcpServer, headers: Record<string, string>) =>
  fetch(server.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(INITIALIZE),
  });

Deno.test("MCP over HTTP: the token is required, a bad Origin is refused", async () => {
  await using server = await HttpMcpServer.start({ token: TOKEN });
  await assert.rejects(() => server.client(), /401|Unauthorized/);
  await assert.rejects(() => server.client({ authorization: "Bearer wrong" }), /401|Unauthorized/);
  const evil = await rawInit(server, { ...AUTH, origin: "https://evil.example" });
  assert.deepEqual([evil.status, await evil.text()], [403, "forbidden"]);
  const { client } = await server.client(AUTH);
  const tools = await client.listTools();
  assert.ok(tools.tools.some((t) => t.name === "execute_command"));
  await client.close();
});

Deno.test("MCP over HTTP: execute_command returns output and exit code; %N reaches another session's pane", async () => {
  await using server = await HttpMcpServer.start();
  const a = await server.client();
  const b = await server.client();
  assert.notEqual(a.transport.sessionId, b.transport.sessionId);
  const pane = JSON.parse(text(
    await a.client.callTool({ name: "create_pane", arguments: { name: "sh", command: "bash --norc --noprofile" } }),
  )) as { pane_id: string };
  const result = JSON.parse(text(
    await b.client.callTool({
      name: "execute_command",
      arguments: { pane_id: pane.pane_id, command: "echo from-b; (exit 3)" },
    }),
  )) as ExecResult;
  assert.equal(result.pane_id, pane.pane_id);
  assert.equal(result.output, "from-b");
  assert.equal(result.exit_code, 3);
  await a.client.close();
  await b.client.close();
});

Deno.test("MCP over HTTP: progress notifications arrive over SSE and cancelling interrupts the command", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client();
  await client.callTool({ name: "create_pane", arguments: { name: "sh", command: "bash --norc --noprofile" } });
  const seen: number[] = [];
  await client.callTool({ name: "execute_command", arguments: { pane_id: "sh", command: "sleep 2.3" } }, undefined, {
    onprogress: (p: { progress: number }) => seen.push(p.progress),
    timeout: 30_000,
  });
  assert.ok(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);

  const controller = new AbortController();
  const call = client.callTool(
    { name: "execute_command", arguments: { pane_id: "sh", command: "sleep 30" } },
    undefined,
    {
      signal: controller.signal,
    },
  );
  const command = async () => {
    const panes = await server.tmux("list-panes", "-a", "-F", "#{pane_current_command}");
    return panes.stdout;
  };
  await until(command, (out) => /^sleep$/m.test(out));
  const cancelledAt = performance.now();
  controller.abort();
  await assert.rejects(call);
  await until(command, (out) => !/^sleep$/m.test(out), 2000);
  assert.ok(performance.now() - cancelledAt < 2000);
  const after = JSON.parse(text(
    await client.callTool({ name: "execute_command", arguments: { pane_id: "sh", command: "echo after" } }),
  )) as ExecResult;
  assert.equal(after.output, "after");
  await client.close();
});

Deno.test("MCP over HTTP: DELETE ends the session; its id is then unknown", async () => {
  await using server = await HttpMcpServer.start();
  const { client, transport } = await server.client();
  const id = transport.sessionId!;
  await transport.terminateSession();
  const after = await fetch(server.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  });
  assert.equal(after.status, 404);
  assert.equal((await after.json()).error.message, "Session not found");
  await client.close();
});

Deno.test("MCP over HTTP: idle sessions expire; beyond the session cap initialize gets 503", async () => {
  await using server = await HttpMcpServer.start({ limits: { maxMcpSessions: 1, mcpIdleTimeoutMs: 400 } });
  const first = await rawInit(server, {});
  assert.equal(first.status, 200);
  const id = first.headers.get("mcp-session-id")!;
  await first.body?.cancel();
  const second = await rawInit(server, {});
  assert.equal(second.status, 503);
  assert.match((await second.json()).error.message, /^Too many MCP sessions: 1 open, the limit is 1/);
  // The first session sends nothing more and holds no stream: it expires, and its slot frees up.
  // (Probing with its own id would keep it alive; a new initialize probes without touching it.)
  const third = await until(() => rawInit(server, {}), (r) => {
    if (r.status !== 200) r.body?.cancel();
    return r.status === 200;
  }, 5000);
  await third.body?.cancel();
  const gone = await fetch(server.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
    },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
});

Deno.test("MCP over HTTP: a POST without a session that is not initialize gets 400", async () => {
  await using server = await HttpMcpServer.start();
  const response = await fetch(server.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(response.status, 400);
  assert.match((await response.json()).error.message, /Mcp-Session-Id header is required/);
});

Deno.test("serve --http: the bridge on the same listener drives real tmux sessions on the app's server", async () => {
  await using server = await HttpMcpServer.start();
  const call = (body: unknown) =>
    fetch(`${server.url}/v1/tmux`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());
  assert.deepEqual(await call({ action: "create_session", session: "addin" }), {
    ok: true,
    action: "create_session",
    session: "addin",
  });
  const ls = await server.tmux("list-sessions", "-F", "#{session_name}");
  assert.match(ls.stdout, /^addin$/m);
  assert.deepEqual((await call({ action: "list_sessions" })).sessions, ["addin"]);
  const health = await (await fetch(`${server.url}/health`)).json();
  assert.equal(health.backend, "tmux");
});
