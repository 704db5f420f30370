/**
 * Every agent tool through the SDK v2 client in the 2026-07-28 era, over stdio and HTTP, with the
 * client negotiating (`auto`: server/discover first) and pinned to 2026-07-28; and the same tour
 * in the 2025 era through the v2 client's `legacy` mode. One tour, one set of checks, every way.
 */
import assert from "node:assert/strict";
import { ModernClient, type Negotiation } from "./helpers/modern_client.ts";
import { HttpMcpServer } from "./helpers/http_mcp.ts";

const AGENT_TOOLS = [
  "create_pane",
  "list_panes",
  "kill_pane",
  "split_pane",
  "send_keys",
  "paste_text",
  "capture_pane",
  "snapshot_pane",
  "execute_command",
  "start_process",
  "stop_process",
  "wait_for_text",
  "pane_state",
  "watch_pane",
  "capture_since",
  "run_in_repl",
  "read_logs",
  "search_panes",
];

/** Drives each of the 18 agent tools once, in the order an agent would, and checks what each returns. */
async function tour(c: ModernClient, era: "modern" | "legacy"): Promise<void> {
  assert.equal(c.era, era);
  const listed = (await c.client.listTools()).tools;
  assert.deepEqual(listed.map((t) => t.name).sort(), [...AGENT_TOOLS].sort());
  const called = new Set<string>();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    called.add(name);
    return await c.call(name, args);
  };

  const run = await call("execute_command", { command: "printf 'one\\ntwo\\n'; false" });
  assert.deepEqual([run.output, run.exit_code, run.outcome], ["one\ntwo", 1, "exited"]);

  const shell = await call("create_pane", { name: "shell" });
  assert.equal(shell.name, "shell");
  await call("send_keys", { pane_id: "shell", text: "echo typed-$((6*7))" });
  const seen = await call("wait_for_text", {
    pane_id: "shell",
    pattern: "typed-42",
    since: "screen",
    timeout_ms: 10_000,
  });
  assert.equal(seen.matched, true);
  const screen = await call("capture_pane", { pane_id: "shell", lines: 20 });
  assert.match(String(screen.text), /typed-42/);
  const first = await call("capture_since", { pane_id: "shell" });
  await call("paste_text", { pane_id: "shell", text: "echo pasted-ok", enter: true });
  // The output line, not the typed command line that also holds the words.
  await call("wait_for_text", {
    pane_id: "shell",
    pattern: "^pasted-ok$",
    regex: true,
    since: "screen",
    timeout_ms: 10_000,
  });
  const since = await call("capture_since", { cursor: first.cursor });
  assert.match(String(since.text), /pasted-ok/);
  const snap = await call("snapshot_pane", { pane_id: "shell", format: "text" });
  assert.match(String(snap.content), /pasted-ok/);
  const state = await call("pane_state", { pane_id: "shell" });
  assert.equal(state.alive, true);

  const server = await call("start_process", {
    name: "server",
    command: "echo booting; sleep 0.2; echo 'listening on 8080'; sleep 600",
    ready: "listening on \\d+",
    timeout_ms: 15_000,
  });
  assert.equal(server.outcome, "ready");
  const found = await call("search_panes", { pattern: "listening on 8080" });
  assert.ok((found.matches as { name?: string }[]).some((m) => m.name === "server"), JSON.stringify(found));
  const logs = await call("read_logs", { pane_id: "server", lines: 10 });
  assert.match(String(logs.content), /booting/);
  const stopped = await call("stop_process", { pane_id: "server" });
  assert.equal(stopped.stopped, true);

  const repl = await call("split_pane", { pane_id: "shell", direction: "right", name: "repl", command: "python3 -q" });
  assert.equal(repl.name, "repl");
  const answer = await call("run_in_repl", {
    pane_id: "repl",
    input: "print(6*7)",
    prompt: "^>>> ",
    timeout_ms: 15_000,
  });
  assert.equal(String(answer.output).trim(), "42");
  await call("send_keys", { pane_id: "repl", text: "exit()" });
  const ended = await call("watch_pane", { pane_id: "repl", triggers: ["exit"], timeout_ms: 10_000 });
  assert.equal(ended.trigger, "exit");

  const panes = await call("list_panes", { owned_only: true });
  const names = (panes.panes as { name: string | null }[]).map((p) => p.name).sort();
  assert.deepEqual(names, ["default", "repl", "server", "shell"]);
  await call("kill_pane", { pane_id: "repl" });
  assert.deepEqual([...called].sort(), [...AGENT_TOOLS].sort());
}

for (const mode of ["auto", "pin"] as Negotiation[]) {
  Deno.test(`MCP 2026-07-28 over stdio (v2 client, ${mode}): every agent tool`, async () => {
    await using c = await ModernClient.stdio({ mode });
    await tour(c, "modern");
  });

  Deno.test(`MCP 2026-07-28 over HTTP (v2 client, ${mode}): every agent tool, the workspace handed back`, async () => {
    await using server = await HttpMcpServer.start();
    await using c = await ModernClient.http(server.mcpUrl, { mode });
    await tour(c, "modern");
    assert.match(c.workspace ?? "", /^tw1\./);
  });
}

Deno.test("MCP 2025-11-25 through the v2 client's legacy mode, stdio and HTTP: the same tour", async () => {
  {
    await using c = await ModernClient.stdio({ mode: "legacy" });
    await tour(c, "legacy");
  }
  await using server = await HttpMcpServer.start();
  await using c = await ModernClient.http(server.mcpUrl, { mode: "legacy" });
  await tour(c, "legacy");
  assert.equal(c.workspace, undefined); // a 2025 session is the caller's workspace: no handle
});
