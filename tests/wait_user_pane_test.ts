import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";

Deno.test("waits on a pane the user created in another session work through %output", async () => {
  await using server = await TestServer.start();
  await server.call("list_panes"); // starts the workspace (and the tmux server)
  const made = await server.tmux(
    "new-session",
    "-d",
    "-s",
    "mine",
    "-x",
    "100",
    "-y",
    "30",
    "-P",
    "-F",
    "#{pane_id}",
    PLAIN_BASH,
  );
  const pane = made.stdout.trim();
  const owned = await server.call<{ panes: { pane_id: string; owned: boolean }[] }>("list_panes");
  assert.equal(owned.panes.find((p) => p.pane_id === pane)?.owned, false);
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }),
    (s) => s.at_shell_prompt,
  );

  const type = async (text: string) => {
    await server.tmux("send-keys", "-t", pane, "-l", text);
    await server.tmux("send-keys", "-t", pane, "Enter");
  };
  await type(`python3 -c "import time; time.sleep(.3); print('US' + 'ER-READY')"`);
  const waited = await server.call<{ matched: boolean; line: string }>("wait_for_text", {
    pane_id: pane,
    pattern: "USER-READY",
    timeout_ms: 10_000,
  });
  assert.equal(waited.line, "USER-READY");

  await type("sleep 0.3; printf 'x\\a'; sleep 30");
  const watched = await server.call<{ trigger: string }>("watch_pane", {
    pane_id: pane,
    triggers: ["bell", "idle:5"],
    timeout_ms: 10_000,
  });
  assert.equal(watched.trigger, "bell");
  await server.tmux("send-keys", "-t", pane, "C-c");

  // Only while a wait runs is a control client attached to the user's session.
  const clients = await until(
    () => server.tmux("list-clients", "-t", "mine", "-F", "#{client_control_mode}"),
    (r) => r.stdout.trim() === "",
  );
  assert.equal(clients.code, 0);
});
