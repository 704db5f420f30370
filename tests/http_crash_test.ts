import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import type { Client } from "./helpers/sdk_client.ts";

// A crash of the HTTP server (SIGKILL under load: none of its own shutdown runs), then a restart on
// the same state directory and tmux server: every session's logs readable, the dead workspaces
// gone (ended by the tmux side as it saw the server die; a restart reaps what it missed), and no
// pane left that nobody owns.

type Json = Record<string, unknown>;

async function ok(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  assert.ok(!result.isError, `${name} failed: ${text}`);
  return JSON.parse(text);
}

Deno.test("HTTP crash: SIGKILL under load, then a restart reaps every dead workspace and still reads every session's logs", async () => {
  const crashed = await HttpMcpServer.start();
  const sessions = await Promise.all([1, 2, 3].map(() => crashed.client()));
  const made: { paneId: string; token: string }[] = [];
  for (const [i, { client }] of sessions.entries()) {
    const token = `SESSION${i}-LINE`;
    const pane = await ok(client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
    await ok(client, "execute_command", { pane_id: "web", command: `for n in 1 2 3; do echo ${token}$n; done` });
    await ok(client, "execute_command", { command: `echo default-${i}` }); // each session's default pane too
    made.push({ paneId: pane.pane_id as string, token });
  }
  // Load in flight when it dies: each session runs commands that are still going.
  const inFlight = sessions.map(({ client }) =>
    client.callTool({ name: "execute_command", arguments: { command: "sleep 5; echo late" } }).catch((e) => e)
  );
  const before = await crashed.tmux("list-sessions", "-F", "#{session_name}");
  assert.equal(before.stdout.split("\n").filter((s) => s.startsWith("tmuxwright-")).length, 4, before.stdout);
  await crashed.crash();
  // The agents give up on the dead server (an SDK client would otherwise wait out its request timeout).
  await Promise.all(sessions.map(({ client }) => client.close()));
  await Promise.all(inFlight);

  // Its tmux side sees it die and ends every session's workspace on its own (the link script; the
  // tmux server may end with its last session): nothing is left running for nobody.
  await until(
    () => crashed.tmux("list-sessions", "-F", "#{session_name}"),
    (out) => !out.stdout.includes("tmuxwright-"),
  );

  await using restarted = await HttpMcpServer.start({ dir: crashed.dir });
  const { client } = await restarted.client();
  await ok(client, "list_panes"); // connects: the hub's preparation reaps dead workspaces
  const sessionsAfter = (await restarted.tmux("list-sessions", "-F", "#{session_name}")).stdout.split("\n")
    .filter((s) => s.startsWith("tmuxwright-"));
  assert.equal(sessionsAfter.length, 1, `only the new server's hub is left: ${sessionsAfter.join(", ")}`);
  // Every pane left belongs to the new server (its hub); none runs for nobody.
  const panes = (await restarted.tmux("list-panes", "-a", "-F", "#{pane_id} #{session_name}")).stdout.trim().split(
    "\n",
  );
  assert.equal(panes.length, 1, panes.join("; "));
  assert.match(panes[0], new RegExp(`^%\\d+ ${sessionsAfter[0]}$`));

  // Each crashed session's log is still readable by its pane id.
  for (const { paneId, token } of made) {
    const log = await ok(client, "read_logs", { pane_id: paneId, lines: 50 });
    for (const n of [1, 2, 3]) assert.ok(String(log.content).includes(`${token}${n}`), `${paneId}: ${log.content}`);
  }
});
