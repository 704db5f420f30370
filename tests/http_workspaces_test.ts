import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import { CallToolResultSchema, type Client } from "./helpers/sdk_client.ts";

// Over HTTP every MCP session is an owner of its own: its own `default` pane, its own names, its
// own `owned`; ended with the session. --shared-workspace gives every session the one workspace.

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return { isError: result.isError === true, text, json: () => JSON.parse(text) };
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await call(client, name, args);
  assert.ok(!result.isError, `${name} failed: ${result.text}`);
  return result.json();
}

async function livePanes(server: HttpMcpServer): Promise<string[]> {
  const out = await server.tmux("list-panes", "-a", "-F", "#{pane_id}");
  return out.code === 0 ? out.stdout.split("\n").filter(Boolean) : [];
}

Deno.test("HTTP sessions: two agents each have their own default and web pane and never touch each other's", async () => {
  await using server = await HttpMcpServer.start();
  const a = await server.client();
  const b = await server.client();
  const webA = await ok(a.client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  const webB = await ok(b.client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  assert.notEqual(webA.pane_id, webB.pane_id);
  assert.notEqual(webA.session_id, webB.session_id, "each session's panes live in its own workspace session");

  // No pane_id: each agent's own `default`; one agent's cd does not move the other.
  const cdA = await ok(a.client, "execute_command", { command: "cd /tmp && pwd" });
  const pwdB = await ok(b.client, "execute_command", { command: "pwd" });
  assert.equal(cdA.output, "/tmp");
  assert.notEqual(cdA.pane_id, pwdB.pane_id);
  assert.notEqual(pwdB.output, "/tmp");

  // A name resolves among the caller's own panes.
  assert.equal((await ok(a.client, "execute_command", { pane_id: "web", command: "echo a" })).pane_id, webA.pane_id);
  assert.equal((await ok(b.client, "execute_command", { pane_id: "web", command: "echo b" })).pane_id, webB.pane_id);

  // list_panes marks `owned` per session; the other's panes are listed but not owned.
  const listedA = (await ok(a.client, "list_panes")).panes as { pane_id: string; owned: boolean }[];
  const owned = (id: string) => listedA.find((p) => p.pane_id === id)?.owned;
  assert.equal(owned(webA.pane_id), true);
  assert.equal(owned(webB.pane_id), false);
  assert.equal(owned(pwdB.pane_id), false);

  // Another session's pane is someone else's: killing it needs the destructive tier.
  const kill = await call(a.client, "kill_pane", { pane_id: webB.pane_id });
  assert.ok(kill.isError && /TIER_DENIED/.test(kill.text), kill.text);
  assert.ok((await livePanes(server)).includes(webB.pane_id));
  // %N still reaches a pane the tier allows: reading another session's pane.
  const read = await call(a.client, "capture_pane", { pane_id: webB.pane_id });
  assert.ok(!read.isError, read.text);

  await a.client.close();
  await b.client.close();
});

Deno.test("HTTP sessions: DELETE /mcp ends the session's workspace (panes killed, logs kept), others go on", async () => {
  await using server = await HttpMcpServer.start();
  const a = await server.client();
  const b = await server.client();
  const webA = await ok(a.client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  const webB = await ok(b.client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  const defB = await ok(b.client, "execute_command", { command: "echo session-b-was-here" });
  const logOption = await server.tmux("show-options", "-p", "-v", "-t", defB.pane_id, "@tmuxwright_log");
  const logPath = decodeURIComponent(logOption.stdout.trim());
  assert.ok(logPath.startsWith(server.dir), logPath);

  await b.transport.terminateSession();
  await until(() => livePanes(server), (panes) => !panes.includes(webB.pane_id) && !panes.includes(defB.pane_id));
  assert.match(await Deno.readTextFile(logPath), /session-b-was-here/);
  assert.ok((await livePanes(server)).includes(webA.pane_id), "the other session's pane stays");
  assert.equal((await ok(a.client, "execute_command", { pane_id: "web", command: "echo still" })).output, "still");
  await a.client.close();
});

Deno.test("HTTP sessions: the server's stop ends every session's workspace", async () => {
  await using server = await HttpMcpServer.start();
  const a = await server.client();
  const b = await server.client();
  const ids = [
    (await ok(a.client, "create_pane", { name: "web", command: "sleep 600" })).pane_id,
    (await ok(b.client, "create_pane", { name: "web", command: "sleep 600" })).pane_id,
  ];
  const status = await server.stop();
  assert.equal(status.code, 0);
  const left = await livePanes(server);
  assert.deepEqual(ids.filter((id) => left.includes(id)), []);
});

Deno.test("HTTP sessions: --keep keeps each session's workspace when it ends", async () => {
  await using server = await HttpMcpServer.start({ flags: ["--keep"] });
  const a = await server.client();
  const web = await ok(a.client, "create_pane", { name: "web", command: "sleep 600" });
  await a.transport.terminateSession();
  const kept = await until(
    () => server.tmux("show-options", "-v", "-t", web.session_id, "@tmuxwright_kept"),
    (out) => out.stdout.trim() === "1",
  );
  assert.equal(kept.code, 0);
  assert.ok((await livePanes(server)).includes(web.pane_id));
});

Deno.test("HTTP sessions: --shared-workspace gives every session the one workspace", async () => {
  await using server = await HttpMcpServer.start({ flags: ["--shared-workspace"] });
  const a = await server.client();
  const b = await server.client();
  const web = await ok(a.client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  const again = await call(b.client, "create_pane", { name: "web" });
  assert.ok(again.isError && /NAME_IN_USE/.test(again.text), again.text);
  assert.equal((await ok(b.client, "execute_command", { pane_id: "web", command: "echo b" })).pane_id, web.pane_id);
  const listed = (await ok(b.client, "list_panes")).panes as { pane_id: string; owned: boolean }[];
  assert.equal(listed.find((p) => p.pane_id === web.pane_id)?.owned, true);
  await a.client.close();
  await b.client.close();
});

Deno.test("HTTP sessions: an idle session expires with its workspace (panes killed)", async () => {
  await using server = await HttpMcpServer.start({ limits: { mcpIdleTimeoutMs: 600 } });
  const post = (body: unknown, session?: string) =>
    fetch(server.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  const session = init.headers.get("mcp-session-id")!;
  await init.body?.cancel();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).body?.cancel();
  // The client sends no more and holds no stream (it went away without DELETE).
  const created = await (await post({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "create_pane", arguments: { name: "web", command: "sleep 600" } },
  }, session)).text();
  const paneId = /\\"pane_id\\":\s*\\"(%\d+)\\"/.exec(created)?.[1] ?? /"pane_id":\s*"(%\d+)"/.exec(created)?.[1];
  assert.ok(paneId, created);
  assert.ok((await livePanes(server)).includes(paneId));
  await until(() => livePanes(server), (panes) => !panes.includes(paneId), 10_000);
});
