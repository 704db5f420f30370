import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";

// Found by the randomized stress: clients that went away without DELETE kept their MCP sessions,
// and so their workspaces and panes, for good. Their standalone SSE stream (GET /mcp) stayed open
// on the server (nothing is written on an idle stream, so a vanished client is never noticed,
// least of all behind the relay), and an open stream counted as activity. It no longer does.

Deno.test("HTTP: a session with only its listening SSE stream open expires when idle, and its panes go", async () => {
  await using server = await HttpMcpServer.start({ limits: { mcpIdleTimeoutMs: 1_500 } });
  const init = await server.initializeRaw("listener");
  const session = init.headers.get("mcp-session-id")!;
  await init.body?.cancel();
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  const post = (body: unknown) =>
    fetch(server.mcpUrl, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).body?.cancel();
  const created = await post({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "create_pane", arguments: { name: "left-behind", command: "sleep 300" } },
  });
  assert.match(await created.text(), /left-behind/);
  // The standalone stream, opened and then never read again (a client that went quiet or away).
  const stream = await fetch(server.mcpUrl, { headers: { ...headers, accept: "text/event-stream" } });
  assert.equal(stream.status, 200);
  try {
    const names = await until(
      async () => (await server.tmux("list-panes", "-a", "-F", "#{@tmuxwright_name}")).stdout,
      (list) => !list.includes("left-behind"),
      15_000,
    );
    assert.ok(!names.includes("left-behind"));
    const gone = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
  } finally {
    await stream.body?.cancel();
  }
});
