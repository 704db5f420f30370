/**
 * MCP 2026-07-28 over HTTP has no sessions: an agent's workspace is named by a handle the server
 * mints and hands back with every result (docs/design/mcp_2026.md). Two agents on one endpoint
 * each have their own default and named panes; a handle cannot be forged or used by another
 * caller; an idle workspace ends (its panes removed) and its handle then says so.
 */
import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import { ModernClient } from "./helpers/modern_client.ts";

async function livePanes(server: HttpMcpServer): Promise<string[]> {
  const out = await server.tmux("list-panes", "-a", "-F", "#{pane_id}");
  return out.code === 0 ? out.stdout.split("\n").filter(Boolean) : [];
}

const agent = (name: string) => ({ mode: "pin" as const, info: { name, version: "1.0.0" } });

Deno.test("MCP 2026 over HTTP: two agents each have their own default and web pane, by their handles", async () => {
  await using server = await HttpMcpServer.start();
  await using a = await ModernClient.http(server.mcpUrl, agent("agent-a"));
  await using b = await ModernClient.http(server.mcpUrl, agent("agent-b"));
  const webA = await a.call("create_pane", { name: "web", command: "bash --norc --noprofile" });
  const webB = await b.call("create_pane", { name: "web", command: "bash --norc --noprofile" });
  assert.match(a.workspace!, /^tw1\.[\w-]{11}\.[\w-]{22}\.[\w-]{22}$/);
  assert.notEqual(a.workspace, b.workspace);
  assert.notEqual(webA.pane_id, webB.pane_id);
  assert.notEqual(webA.session_id, webB.session_id, "each workspace's panes live in a tmux session of their own");

  // No pane_id: each agent's own `default`; one agent's cd does not move the other.
  const cdA = await a.call("execute_command", { command: "cd /tmp && pwd" });
  const pwdB = await b.call("execute_command", { command: "pwd" });
  assert.equal(cdA.output, "/tmp");
  assert.notEqual(cdA.pane_id, pwdB.pane_id);
  assert.notEqual(pwdB.output, "/tmp");
  // A name resolves among the caller's own panes.
  assert.equal((await a.call("execute_command", { pane_id: "web", command: "echo a" })).pane_id, webA.pane_id);
  assert.equal((await b.call("execute_command", { pane_id: "web", command: "echo b" })).pane_id, webB.pane_id);
  const ownedA = (await a.call("list_panes", { owned_only: true })).panes as { pane_id: string }[];
  assert.deepEqual(ownedA.map((p) => p.pane_id).sort(), [cdA.pane_id, webA.pane_id].sort());
  // Another workspace's pane is someone else's: killing it needs the destructive tier.
  assert.match(await a.callError("kill_pane", { pane_id: webB.pane_id }), /TIER_DENIED/);
  assert.ok((await livePanes(server)).includes(webB.pane_id as string));

  // A call without the handle gets a fresh workspace: the names of the first are not there.
  const stranger = await ModernClient.http(server.mcpUrl, agent("agent-a"));
  assert.match(await stranger.callError("capture_pane", { pane_id: "web" }), /PANE_NOT_FOUND/);
  await stranger[Symbol.asyncDispose]();
});

Deno.test("MCP 2026 over HTTP: a handle is bound to its caller; a forged or borrowed one runs nothing", async () => {
  await using server = await HttpMcpServer.start();
  await using a = await ModernClient.http(server.mcpUrl, agent("agent-a"));
  await using b = await ModernClient.http(server.mcpUrl, agent("agent-b"));
  await a.call("create_pane", { name: "web" });
  const before = await livePanes(server);

  // Agent B presents A's handle: another client name, so not B's to use.
  b.workspace = a.workspace;
  assert.match(
    await b.callError("create_pane", { name: "intruder" }),
    /INVALID_ARGUMENT: The "workspace" handle is not one/,
  );
  // A handle with one character changed.
  const id = a.workspace!.split(".")[2];
  const flipped = id.slice(0, -1) + (id.endsWith("A") ? "B" : "A");
  b.workspace = a.workspace!.replace(id, flipped);
  assert.match(await b.callError("create_pane", { name: "intruder" }), /INVALID_ARGUMENT/);
  // Through request `_meta` instead of the argument: the same check.
  const viaMeta = await b.client.callTool({
    name: "create_pane",
    arguments: { name: "intruder" },
    _meta: { "dev.tmuxwright/workspace": a.workspace },
  });
  assert.equal(viaMeta.isError, true);
  assert.deepEqual(await livePanes(server), before, "nothing was created");
  const names = ((await a.call("list_panes", { owned_only: true })).panes as { name: string }[]).map((p) => p.name);
  assert.deepEqual(names, ["web"]);
});

Deno.test("MCP 2026 over HTTP: an idle workspace ends with its panes; its handle then answers WORKSPACE_EXPIRED", async () => {
  await using server = await HttpMcpServer.start({ env: { TMUXWRIGHT_MCP_IDLE_MS: "1000" } });
  await using a = await ModernClient.http(server.mcpUrl, agent("agent-a"));
  const web = await a.call("create_pane", { name: "web" });
  assert.ok((await livePanes(server)).includes(web.pane_id as string));
  await until(() => livePanes(server), (panes) => !panes.includes(web.pane_id as string), 10_000);
  assert.match(await a.callError("list_panes"), /WORKSPACE_EXPIRED: The workspace of this handle has ended/);
  // Without the handle: a new workspace.
  a.workspace = undefined;
  await a.call("create_pane", { name: "web" });
  assert.match(a.workspace!, /^tw1\./);
});

Deno.test("MCP 2026 over HTTP: a handle from before a restart answers WORKSPACE_EXPIRED, not a forgery", async () => {
  const first = await HttpMcpServer.start();
  const a = await ModernClient.http(first.mcpUrl, agent("agent-a"));
  await a.call("create_pane", { name: "web" });
  const handle = a.workspace!;
  await a[Symbol.asyncDispose]();
  await first.stop();
  await using second = await HttpMcpServer.start({ dir: first.dir });
  await using again = await ModernClient.http(second.mcpUrl, agent("agent-a"));
  again.workspace = handle;
  assert.match(await again.callError("list_panes"), /WORKSPACE_EXPIRED: .*the server restarted since/);
});

Deno.test("MCP 2026 over HTTP: resources/read resolves a pane name in the workspace its `_meta` handle names", async () => {
  await using server = await HttpMcpServer.start();
  await using a = await ModernClient.http(server.mcpUrl, agent("agent-a"));
  const web = await a.call("create_pane", { name: "web" });
  await a.call("execute_command", { pane_id: "web", command: "echo resource-$((40+2))" });
  const uri = "tmux://panes/web/content";
  const read = await a.client.readResource({ uri, _meta: { "dev.tmuxwright/workspace": a.workspace } });
  assert.match((read.contents[0] as { text: string }).text, /resource-42/);
  // Without the handle the name is nobody's; the pane id still reads.
  await assert.rejects(a.client.readResource({ uri }), /PANE_NOT_FOUND/);
  const byId = await a.client.readResource({ uri: `tmux://panes/${encodeURIComponent(String(web.pane_id))}/content` });
  assert.match((byId.contents[0] as { text: string }).text, /resource-42/);
});
