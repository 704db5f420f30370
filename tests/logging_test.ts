import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { LoggingMessageNotificationSchema } from "./helpers/sdk_client.ts";
import { killUnseen } from "./helpers/unseen_death.ts";

/** Detaches the server's control connection from outside, as a tmux hiccup would. */
async function dropControlConnection(server: TestServer): Promise<void> {
  const session = `tmuxwright-${server.pid}`;
  const result = await server.tmux("detach-client", "-s", session);
  assert.equal(result.code, 0, result.stderr);
}

Deno.test("logging: refused calls and tmux reconnects at the client's level, nothing below it", async () => {
  await using server = await TestServer.start({ args: ["--safety", "readonly"] });
  const logs = server.listen(LoggingMessageNotificationSchema);
  await server.client.setLoggingLevel("warning");

  assert.match(await server.callError("create_pane", {}), /^TIER_DENIED/);
  await until(() => logs.length, (n) => n >= 1);
  assert.equal(logs[0].params.level, "warning");
  assert.equal(logs[0].params.logger, "safety");
  assert.match(String(logs[0].params.data), /^refused create_pane: TIER_DENIED: Tool "create_pane" needs safety tier/);

  // Lost: a warning. Re-established by the next call: info, below the level.
  await server.call("list_panes");
  await dropControlConnection(server);
  await until(() => logs.length, (n) => n >= 2);
  assert.equal(logs[1].params.level, "warning");
  assert.match(String(logs[1].params.data), /^control connection lost/);
  await server.call("list_panes"); // reconnects
  await server.client.ping(); // everything the server sent before this answer has arrived
  assert.deepEqual(logs.map((l) => l.params.level), ["warning", "warning"]);

  await server.client.setLoggingLevel("info");
  await dropControlConnection(server);
  await until(() => logs.length, (n) => n >= 3);
  await server.call("list_panes");
  await until(() => logs.length, (n) => n >= 4);
  assert.deepEqual(logs.slice(2).map((l) => [l.params.level, l.params.logger, l.params.data]), [
    ["warning", "tmux", logs[2].params.data],
    ["info", "tmux", "control connection re-established"],
  ]);

  // stdio keeps logging to stderr too, whatever the client's level.
  await until(() => server.stderr.join(""), (text) => /info: tmux: control connection re-established/.test(text));
  assert.match(server.stderr.join(""), /\[tmuxwright\] warning: safety: refused create_pane: TIER_DENIED/);
});

Deno.test("logging: workspaces of crashed servers removed at start are logged", async () => {
  const crashed = await TestServer.start();
  await crashed.call("create_pane", {});
  const stale = `tmuxwright-${crashed.pid}`;
  await killUnseen(crashed.pid); // no chance to clean up, and its tmux side does not see it die
  await crashed.close(false);
  assert.equal((await crashed.tmux("has-session", "-t", `=${stale}`)).code, 0);

  await using server = await TestServer.start({ dir: crashed.dir });
  await server.call("list_panes"); // the first use reaps too
  await until(() => server.stderr.join(""), (text) => /info: workspace: removed stale workspaces/.test(text));
  assert.match(server.stderr.join(""), new RegExp(`removed stale workspaces whose server is gone: ${stale}`));
  assert.notEqual((await server.tmux("has-session", "-t", `=${stale}`)).code, 0);
});
