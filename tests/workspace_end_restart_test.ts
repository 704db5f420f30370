import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { CallToolResultSchema, type Client } from "./helpers/sdk_client.ts";

/**
 * tmux numbers sessions from $0 again after a restart, so an HTTP session's workspace that stayed
 * idle through one holds an id that may now name another session's workspace. Its end must remove
 * its own session only. Found by the stress: a session's pane vanished when another, dropped
 * session expired after a tmux restart.
 */
Deno.test("an idle session's workspace ended after a tmux restart removes only its own session", async () => {
  await using server = await HttpMcpServer.start({ limits: { mcpIdleTimeoutMs: 2_000 } });
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    assert.ok(!result.isError, text);
    return JSON.parse(text);
  };
  const ids = async () => (await server.tmux("list-sessions", "-F", "#{session_id} #{session_name}")).stdout;
  const idle = await server.client({}, { name: "idle", version: "0" });
  const busy = await server.client({}, { name: "busy", version: "0" });
  try {
    const idlePane = await call(idle.client, "create_pane", { command: "sleep 300" });
    const before = await ids();
    await server.tmux("kill-server");
    // The busy session carries on: its workspace is made again on the new tmux server, where the
    // ids start again, so it takes an id the idle session's workspace had.
    await call(busy.client, "list_panes", {}).catch(() => {}); // the call that finds the connection gone
    const pane = await call(busy.client, "create_pane", { name: "kept" });
    const after = await ids();
    const taken = before.split("\n").map((l) => l.split(" ")[0]).filter((id) => id && after.includes(`${id} `));
    assert.ok(taken.length > 0, `no old id was given again: before ${before}, after ${after}`);
    assert.ok(idlePane.session_id !== undefined);
    // The idle session expires; its workspace ends.
    await idle.transport.terminateSession().catch(() => {});
    // Past the idle session's expiry, the busy one keeps calling (it must not expire itself).
    for (const until = performance.now() + 4_000; performance.now() < until;) {
      await call(busy.client, "list_panes", {});
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const still = await call(busy.client, "execute_command", { pane_id: pane.pane_id, command: "echo alive" });
    assert.equal(still.output, "alive");
  } finally {
    await idle.client.close().catch(() => {});
    await busy.client.close().catch(() => {});
  }
});
