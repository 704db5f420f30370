import assert from "node:assert/strict";
import { TestServer, tmuxAt } from "./helpers/harness.ts";

/** A plain tmux server with a session "user"; what TMUX/TMUX_PANE say inside its first pane. */
async function callerServer(socket: string) {
  const made = await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}");
  assert.equal(made.code, 0, made.stderr);
  const pane = made.stdout.trim();
  const info = await tmuxAt(socket, "display-message", "-p", "-t", pane, "#{pid} #{session_id} #{window_id}");
  const [pid, sessionId, windowId] = info.stdout.trim().split(" ");
  return { pane, windowId, sessionId, env: { TMUX: `${socket},${pid},${sessionId.slice(1)}`, TMUX_PANE: pane } };
}

Deno.test("inside tmux, every kill, respawn and rename of its own pane, window, session or server is refused at destructive", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const caller = await callerServer(`${dir}/s`);
  await tmuxAt(`${dir}/s`, "new-window", "-d", "-t", "user:", "sleep 600"); // a second window of the caller's session
  await using server = await TestServer.start({
    dir,
    env: caller.env,
    args: ["--tools", "all", "--safety", "destructive"],
  });
  const state = () =>
    server.tmux("display-message", "-p", "-t", caller.pane, "#{pane_pid} #{session_name} #{window_name}");
  const before = (await state()).stdout;

  for (
    const [tool, args, what] of [
      ["respawn_pane", { pane_id: caller.pane }, `pane ${caller.pane}`],
      ["kill_window", { window: caller.windowId }, `window ${caller.windowId}`],
      ["rename_window", { window: "user:0", name: "x" }, `window ${caller.windowId}`],
      ["kill_session", { session: "user" }, `session \\${caller.sessionId}`],
      ["rename_session", { session: caller.sessionId, name: "x" }, `session \\${caller.sessionId}`],
      ["kill_server", {}, "the tmux server"],
      ["kill_server", { socket: `${dir}/s` }, "the tmux server"],
    ] as const
  ) {
    const text = await server.callError(tool, args);
    assert.match(
      text,
      new RegExp(`^PROTECTED_TARGET: Cannot \\w+ ${what}: tmuxwright itself runs in`),
      `${tool}: ${text}`,
    );
    assert.match(text, /refused at every safety tier/);
  }
  assert.equal((await state()).stdout, before);

  // The caller's other window is only a matter of tier.
  const second = (await server.tmux("display-message", "-p", "-t", "user:1", "#{window_id}")).stdout.trim();
  await server.call("rename_window", { window: second, name: "renamed" });
  assert.equal((await server.tmux("display-message", "-p", "-t", second, "#{window_name}")).stdout.trim(), "renamed");
});

Deno.test("the same kills at mutating: others' windows, sessions and panes need destructive; kill_server is not listed", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const names = (await server.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes("kill_server") && names.includes("kill_session"));
  assert.match(
    await server.callError("kill_server"),
    /^TIER_DENIED: Tool "kill_server" needs safety tier "destructive"/,
  );
  const made = await server.tmux("new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id} #{window_id}", "sleep 600");
  const [pane, window] = made.stdout.trim().split(" ");
  for (
    const [tool, args] of [
      ["respawn_pane", { pane_id: pane }],
      ["kill_pane", { pane_id: pane }],
      ["kill_window", { window }],
      ["rename_window", { window, name: "x" }],
      ["kill_session", { session: "user" }],
      ["rename_session", { session: "user", name: "x" }],
    ] as const
  ) {
    assert.match(await server.callError(tool, args), /^TIER_DENIED: .*which this server did not create/, tool);
  }
  assert.equal((await server.tmux("display-message", "-p", "-t", pane, "#{session_name}")).stdout.trim(), "user");
});
