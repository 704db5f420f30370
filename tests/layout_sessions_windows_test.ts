import assert from "node:assert/strict";
import { TestServer, tmuxAt, until } from "./helpers/harness.ts";

/** What tmux itself says, from outside the server. */
async function tmuxSays(server: TestServer, target: string, format: string): Promise<string> {
  const out = await server.tmux("display-message", "-p", "-t", target, format);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

async function sessionNames(server: TestServer): Promise<string[]> {
  return (await server.tmux("list-sessions", "-F", "#{session_name}")).stdout.trim().split("\n");
}

interface SessionRow {
  session_id: string;
  name: string;
  owned: boolean;
  workspace?: boolean;
}
interface WindowRow {
  window_id: string;
  session_id: string;
  session: string;
  index: number;
  name: string;
  active: boolean;
  size: string;
  layout: string;
  panes: string[];
  owned: boolean;
}

Deno.test("sessions: create, list, rename and kill one this server owns; tmux shows each change", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const made = await server.call<{ session_id: string; pane_id: string; window_id: string; attach_command: string }>(
    "create_session",
    { name: "dev", window_name: "editor", command: "sleep 600" },
  );
  assert.equal(
    await tmuxSays(server, "=dev:", "#{session_id} #{window_id} #{window_name}"),
    `${made.session_id} ${made.window_id} editor`,
  );
  assert.equal(await tmuxSays(server, made.pane_id, "#{@tmuxwright_owner}"), String(server.pid));
  assert.match(made.attach_command, /attach -t =dev$/);

  const { sessions } = await server.call<{ sessions: SessionRow[] }>("list_sessions");
  assert.deepEqual(sessions.find((s) => s.name === "dev"), {
    session_id: made.session_id,
    name: "dev",
    windows: 1,
    attached: 0,
    owned: true,
  });
  assert.equal(sessions.find((s) => s.workspace)?.owned, false);

  const renamed = await server.call<{ session_id: string; name: string }>("rename_session", {
    session: "dev",
    name: "dev2",
  });
  assert.deepEqual(renamed, { session_id: made.session_id, name: "dev2", old_name: "dev" });
  assert.equal(await tmuxSays(server, made.session_id, "#{session_name}"), "dev2");

  const killed = await server.call("kill_session", { session: made.session_id });
  assert.deepEqual(killed, { session_id: made.session_id, name: "dev2", killed: true });
  assert.ok(!(await sessionNames(server)).includes("dev2"));
});

Deno.test("sessions: foreign, protected, unknown and taken targets are refused and change nothing", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  assert.equal((await server.tmux("new-session", "-d", "-s", "user", "sleep 600")).code, 0);
  const userId = await tmuxSays(server, "=user:", "#{session_id}");

  let text = await server.callError("kill_session", { session: "user" });
  assert.match(text, new RegExp(`^TIER_DENIED: Cannot kill session \\${userId}, which this server did not create`));
  assert.match(text, /--safety destructive/);
  text = await server.callError("rename_session", { session: userId, name: "mine" });
  assert.match(text, /^TIER_DENIED: Cannot rename session/);
  assert.ok((await sessionNames(server)).includes("user"));

  text = await server.callError("kill_session", { session: "nope" });
  assert.match(text, /^NOT_FOUND: Session "nope" not found\. Sessions: .*"user"/);
  assert.match(text, /Use list_sessions/);

  // Prefix matching never applies: "use" is not "user".
  text = await server.callError("kill_session", { session: "use" });
  assert.match(text, /^NOT_FOUND/);

  const { sessions } = await server.call<{ sessions: SessionRow[] }>("list_sessions");
  const workspace = sessions.find((s) => s.workspace)!;
  text = await server.callError("kill_session", { session: workspace.name });
  assert.match(text, /^PROTECTED_TARGET: Cannot kill session \$\d+: it holds the workspace hub/);
  text = await server.callError("rename_session", { session: workspace.session_id, name: "x" });
  assert.match(text, /^PROTECTED_TARGET/);

  await server.call("create_session", { name: "mine" });
  text = await server.callError("create_session", { name: "user" });
  assert.match(text, /^NAME_IN_USE: Session name "user" is already used by session \$\d+/);
  text = await server.callError("rename_session", { session: "mine", name: "user" });
  assert.match(text, /^NAME_IN_USE/);
  text = await server.callError("create_session", { name: "a:b" });
  assert.match(text, /^INVALID_ARGUMENT/);
  assert.deepEqual((await sessionNames(server)).filter((n) => !n.startsWith("tmuxwright-")).sort(), ["mine", "user"]);
});

Deno.test("sessions: at destructive a foreign session can be killed", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "destructive"] });
  assert.equal((await server.tmux("new-session", "-d", "-s", "user", "sleep 600")).code, 0);
  await server.call("list_panes"); // the workspace keeps the tmux server alive after the kill
  await server.call("kill_session", { session: "user" });
  assert.ok(!(await sessionNames(server)).includes("user"));
});

Deno.test("windows: create, rename, select, layout, resize, move and kill; tmux shows each change", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const session = await server.call<{ session_id: string; window_id: string }>("create_session", { name: "dev" });
  const made = await server.call<{ window_id: string; pane_id: string; session_id: string; index: number }>(
    "create_window",
    { session: "dev", name: "logs", command: "sleep 600" },
  );
  assert.equal(made.session_id, session.session_id);
  assert.equal(
    await tmuxSays(server, made.window_id, "#{session_name}:#{window_index} #{window_name}"),
    `dev:${made.index} logs`,
  );
  assert.equal(await tmuxSays(server, made.pane_id, "#{@tmuxwright_owner}"), String(server.pid));

  const renamed = await server.call<WindowRow>("rename_window", { window: `dev:${made.index}`, name: "tail" });
  assert.equal(renamed.window_id, made.window_id);
  assert.equal(await tmuxSays(server, made.window_id, "#{window_name}"), "tail");

  await server.call<WindowRow>("select_window", { window: session.window_id });
  assert.equal(await tmuxSays(server, session.window_id, "#{window_active}"), "1");
  const selected = await server.call<WindowRow>("select_window", { window: made.window_id });
  assert.equal(selected.active, true);
  assert.equal(await tmuxSays(server, made.window_id, "#{window_active}"), "1");

  await server.call("split_pane", { pane_id: made.pane_id, direction: "right" });
  await server.call("split_pane", { pane_id: made.pane_id, direction: "below" });
  const tiled = await server.call<WindowRow>("select_layout", { window: made.window_id, layout: "even-horizontal" });
  assert.equal(tiled.layout, await tmuxSays(server, made.window_id, "#{window_layout}"));
  assert.equal(tiled.panes.length, 3);
  const lefts = (await server.tmux("list-panes", "-t", made.window_id, "-F", "#{pane_top}")).stdout.trim().split("\n");
  assert.deepEqual(new Set(lefts), new Set(["0"]), "even-horizontal puts every pane side by side");
  // A layout string from list_windows restores an earlier arrangement.
  await server.call("select_layout", { window: made.window_id, layout: "even-vertical" });
  await server.call("select_layout", { window: made.window_id, layout: tiled.layout });
  assert.equal(await tmuxSays(server, made.window_id, "#{window_layout}"), tiled.layout);

  const resized = await server.call<WindowRow>("resize_window", { window: made.window_id, width: 100, height: 30 });
  assert.equal(resized.size, "100x30");
  assert.equal(await tmuxSays(server, made.window_id, "#{window_width}x#{window_height}"), "100x30");

  const other = await server.call<{ session_id: string }>("create_session", { name: "other" });
  const moved = await server.call<WindowRow>("move_window", { window: made.window_id, session: "other", index: 7 });
  assert.deepEqual([moved.window_id, moved.session_id, moved.index], [made.window_id, other.session_id, 7]);
  assert.equal(await tmuxSays(server, made.window_id, "#{session_name}:#{window_index}"), "other:7");

  const { windows } = await server.call<{ windows: WindowRow[] }>("list_windows", { session: "other" });
  assert.deepEqual(windows.map((w) => w.index).sort(), [0, 7]);
  assert.ok(windows.every((w) => w.owned && w.session_id === other.session_id));
  // Without `session` the window moves within its own session.
  const renumbered = await server.call<WindowRow>("move_window", { window: made.window_id, index: 9 });
  assert.deepEqual([renumbered.session_id, renumbered.index], [other.session_id, 9]);
  assert.equal(await tmuxSays(server, made.window_id, "#{session_name}:#{window_index}"), "other:9");
  assert.match(await server.callError("move_window", { window: made.window_id }), /INVALID_ARGUMENT: Nothing to move/);

  const killed = await server.call("kill_window", { window: "other:9" });
  assert.deepEqual(killed, { window_id: made.window_id, session_id: other.session_id, killed: true });
  const left = await server.tmux("list-windows", "-a", "-F", "#{window_id}");
  assert.ok(!left.stdout.split("\n").includes(made.window_id));
});

Deno.test("windows: foreign, hub and unknown targets are refused and change nothing", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  assert.equal(
    (await server.tmux("new-session", "-d", "-s", "user", "-n", "userwin", "-x", "90", "-y", "20", "sleep 600")).code,
    0,
  );
  const userWindow = await tmuxSays(server, "=user:", "#{window_id}");
  // tmux 3.2 sizes a detached session by the client that made it, whatever -x says: the width is set outright.
  assert.equal((await server.tmux("resize-window", "-t", userWindow, "-x", "90", "-y", "20")).code, 0);
  for (
    const [tool, args, action] of [
      ["kill_window", {}, "kill"],
      ["rename_window", { name: "x" }, "rename"],
      ["select_window", {}, "select"],
      ["select_layout", { layout: "tiled" }, "change the layout of"],
      ["resize_window", { width: 50 }, "resize"],
      ["move_window", { session: "user" }, "move"],
    ] as const
  ) {
    const text = await server.callError(tool, { window: "user:0", ...args });
    assert.match(
      text,
      new RegExp(`^TIER_DENIED: Cannot ${action} window ${userWindow}, which this server did not create`),
    );
  }
  assert.equal(await tmuxSays(server, userWindow, "#{window_name} #{window_width}"), "userwin 90");

  // A window this server created in the user's session is its own.
  const mine = await server.call<{ window_id: string }>("create_window", { session: "user", name: "mine" });
  await server.call("rename_window", { window: mine.window_id, name: "mine2" });
  assert.equal(await tmuxSays(server, mine.window_id, "#{session_name} #{window_name}"), "user mine2");
  // ...until a person adds a pane of their own to it.
  assert.equal((await server.tmux("split-window", "-d", "-t", mine.window_id, "sleep 600")).code, 0);
  assert.match(await server.callError("kill_window", { window: mine.window_id }), /^TIER_DENIED/);

  const { windows } = await server.call<{ windows: WindowRow[] }>("list_windows");
  const hub = windows.find((w) => w.session.startsWith("tmuxwright-") && w.index === 0)!;
  for (const tool of ["kill_window", "rename_window", "move_window"]) {
    const text = await server.callError(tool, { window: hub.window_id, name: "x", session: "user" });
    assert.match(
      text,
      new RegExp(`^PROTECTED_TARGET: Cannot \\w+ window ${hub.window_id}: it holds the workspace hub`),
    );
  }
  let text = await server.callError("kill_window", { window: "@9999" });
  assert.match(text, /^NOT_FOUND: Window "@9999" not found.*list_windows/);
  text = await server.callError("kill_window", { window: "user:42" });
  assert.match(text, /^NOT_FOUND/);
  text = await server.callError("kill_window", { window: "user" });
  assert.match(text, /^INVALID_ARGUMENT: .*window id like "@3" or session:index/);
  text = await server.callError("select_layout", { window: mine.window_id, layout: "spiral" });
  assert.match(text, /^INVALID_ARGUMENT/);
  text = await server.callError("create_window", { session: "nope" });
  assert.match(text, /^NOT_FOUND: Session "nope"/);
});

Deno.test("sessions and windows this server created are removed when it exits", async () => {
  const server = await TestServer.start({ args: ["--tools", "all"] });
  try {
    assert.equal((await server.tmux("new-session", "-d", "-s", "user", "sleep 600")).code, 0);
    await server.call("create_session", { name: "dev", command: "sleep 600" });
    const mine = await server.call<{ window_id: string }>("create_window", { session: "user", command: "sleep 600" });
    await server.close(false);
    const sessions = await until(
      () => sessionNames(server),
      (names) => !names.some((n) => n.startsWith("tmuxwright-")),
    );
    assert.deepEqual(sessions, ["user"]);
    const windows = await tmuxAt(server.socket, "list-windows", "-a", "-F", "#{window_id}");
    assert.ok(!windows.stdout.split("\n").includes(mine.window_id), windows.stdout);
  } finally {
    await server.close();
  }
});
