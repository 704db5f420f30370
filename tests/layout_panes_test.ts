import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";

async function tmuxSays(server: TestServer, target: string, format: string): Promise<string> {
  const out = await server.tmux("display-message", "-p", "-t", target, format);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

interface Ids {
  pane_id: string;
  window_id: string;
  session_id: string;
}

/** A window this server owns with panes a (left), b (top right), c (bottom right). */
async function threePanes(server: TestServer) {
  const a = await server.call<Ids>("create_window", { command: "sleep 600" });
  const b = await server.call<Ids>("split_pane", { pane_id: a.pane_id, direction: "right", command: "sleep 600" });
  const c = await server.call<Ids>("split_pane", { pane_id: b.pane_id, direction: "below", command: "sleep 600" });
  return { a: a.pane_id, b: b.pane_id, c: c.pane_id, window: a.window_id };
}

Deno.test("panes: get_pane_info, select, swap, resize, zoom and find by corner, seen in tmux", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const { a, b, c, window } = await threePanes(server);

  const info = await server.call<Record<string, unknown>>("get_pane_info", { pane_id: c });
  assert.equal(info.pane_id, c);
  assert.equal(info.window_id, window);
  assert.equal(info.owned, true);
  assert.equal(info.logged, true);
  assert.equal(`${info.left},${info.top}`, await tmuxSays(server, c, "#{pane_left},#{pane_top}"));
  assert.equal(info.pane_index, Number(await tmuxSays(server, c, "#{pane_index}")));

  const corners: Record<string, string> = {};
  for (const corner of ["top-left", "top-right", "bottom-left", "bottom-right"]) {
    corners[corner] = (await server.call<Ids>("find_pane_by_position", { window, corner })).pane_id;
  }
  assert.deepEqual(corners, { "top-left": a, "top-right": b, "bottom-left": a, "bottom-right": c });

  const selected = await server.call<Ids & { active: boolean }>("select_pane", { pane_id: a });
  assert.equal(selected.pane_id, a);
  assert.equal(await tmuxSays(server, a, "#{pane_active} #{window_active}"), "1 1");

  const indexOf = (pane: string) => tmuxSays(server, pane, "#{pane_index}");
  const [ia, ic] = [await indexOf(a), await indexOf(c)];
  const swapped = await server.call<{ panes: (Ids & { pane_index: number })[] }>("swap_pane", {
    pane_id: a,
    other_pane_id: c,
  });
  assert.deepEqual([await indexOf(a), await indexOf(c)], [ic, ia]);
  assert.deepEqual(swapped.panes.map((p) => [p.pane_id, String(p.pane_index)]), [[a, ic], [c, ia]]);
  assert.equal(await tmuxSays(server, a, "#{pane_active}"), "1", "swap keeps the active pane where it was");

  const wide = await server.call<{ size: string }>("resize_pane", { pane_id: b, width: 60 });
  assert.equal(await tmuxSays(server, b, "#{pane_width}"), "60");
  assert.match(wide.size, /^60x/);
  const narrower = await server.call<{ size: string }>("resize_pane", { pane_id: b, dx: -10 });
  assert.equal(await tmuxSays(server, b, "#{pane_width}"), "50");
  assert.match(narrower.size, /^50x/);
  const zoomed = await server.call<{ zoomed: boolean }>("resize_pane", { pane_id: b, zoom: true });
  assert.equal(zoomed.zoomed, true);
  assert.equal(await tmuxSays(server, window, "#{window_zoomed_flag}"), "1");
  assert.equal((await server.call<{ zoomed: boolean }>("resize_pane", { pane_id: b, zoom: true })).zoomed, true);
  assert.equal(await tmuxSays(server, window, "#{window_zoomed_flag}"), "1", "zoom is idempotent, not a toggle");
  await server.call("resize_pane", { pane_id: b, zoom: false });
  assert.equal(await tmuxSays(server, window, "#{window_zoomed_flag}"), "0");

  assert.match(await server.callError("resize_pane", { pane_id: b }), /^INVALID_ARGUMENT: Nothing to resize/);
  assert.match(await server.callError("resize_pane", { pane_id: b, width: 5, dx: 1 }), /^INVALID_ARGUMENT/);
  assert.match(await server.callError("get_pane_info", { pane_id: "%9999" }), /^PANE_NOT_FOUND: .*list_panes/);
  assert.match(await server.callError("swap_pane", { pane_id: a, other_pane_id: "nope" }), /^PANE_NOT_FOUND/);
  assert.match(await server.callError("find_pane_by_position", { window: "@9999", corner: "top-left" }), /^NOT_FOUND/);
});

Deno.test("panes: respawn, title, clear and copy mode act on the pane and keep its log", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const pane = (await server.call<Ids>("create_pane", { command: "seq 1 300; echo first-life; exec sleep 600" }))
    .pane_id;
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: pane }), (r) => /first-life/.test(r.text));
  const pid = await tmuxSays(server, pane, "#{pane_pid}");

  const entered = await server.call<{ in_mode: boolean; scroll_position: number }>("enter_copy_mode", {
    pane_id: pane,
    scroll_up: 5,
  });
  assert.deepEqual([entered.in_mode, entered.scroll_position], [true, 5]);
  assert.equal(await tmuxSays(server, pane, "#{pane_in_mode} #{scroll_position}"), "1 5");
  const left = await server.call<{ in_mode: boolean }>("exit_copy_mode", { pane_id: pane });
  assert.equal(left.in_mode, false);
  assert.equal(await tmuxSays(server, pane, "#{pane_in_mode}"), "0");
  assert.equal((await server.call<{ in_mode: boolean }>("exit_copy_mode", { pane_id: pane })).in_mode, false);

  // The title is text: a format or a shell job in it stays text.
  const title = "build #{pane_id} #(touch /tmp/tw-title-canary) $HOME";
  await server.call("set_pane_title", { pane_id: pane, title });
  assert.equal(await tmuxSays(server, pane, "#{pane_title}"), title);
  await assert.rejects(Deno.stat("/tmp/tw-title-canary"));

  assert.notEqual(await tmuxSays(server, pane, "#{history_size}"), "0");
  await server.call("clear_pane", { pane_id: pane });
  assert.equal(await tmuxSays(server, pane, "#{history_size}"), "0");
  const screen = await server.call<{ text: string }>("capture_pane", { pane_id: pane });
  assert.doesNotMatch(screen.text, /first-life/);
  const log = await server.call<{ content: string }>("read_logs", { pane_id: pane });
  assert.match(log.content, /first-life/, "the durable log keeps what the screen lost");

  const respawned = await server.call<Ids & { pid: number; previous_pid: number }>("respawn_pane", {
    pane_id: pane,
    command: "echo second-life; exec sleep 600",
  });
  assert.equal(respawned.pane_id, pane);
  assert.equal(String(respawned.previous_pid), pid);
  assert.notEqual(String(respawned.pid), pid);
  assert.equal(await tmuxSays(server, pane, "#{pane_pid}"), String(respawned.pid));
  await until(
    () => server.call<{ content: string }>("read_logs", { pane_id: pane }),
    (r) => /second-life/.test(r.content),
  );
  // Without a command an owned pane gets the shell (its first command was the start-up gate).
  await server.call("respawn_pane", { pane_id: pane });
  await until(() => tmuxSays(server, pane, "#{pane_current_command}"), (c) => c === "bash");
});

Deno.test("panes: pipe_pane logs a user's pane for read_logs, capture_since and waits, without owning it", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const made = await server.tmux("new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", PLAIN_BASH);
  const user = made.stdout.trim();
  assert.match(await server.callError("read_logs", { pane_id: user }), /has no log.*pipe_pane/);

  const started = await server.call<Ids & { logged: boolean; started: boolean; log_path: string }>("pipe_pane", {
    pane_id: user,
  });
  assert.deepEqual([started.pane_id, started.logged, started.started], [user, true, true]);
  assert.equal(await tmuxSays(server, user, "#{pane_pipe}"), "1");
  assert.equal(decodeURIComponent(await tmuxSays(server, user, "#{@tmuxwright_log}")), started.log_path);
  assert.equal((await server.call<{ started: boolean }>("pipe_pane", { pane_id: user })).started, false);

  const first = await server.call<{ cursor: string }>("capture_since", { pane_id: user });
  const position = JSON.parse(atob(first.cursor.slice(4).replaceAll("-", "+").replaceAll("_", "/")));
  assert.equal(position.k, "log", "capture_since reads the new log, as for owned panes");
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: user }),
    (s) => s.at_shell_prompt,
  );
  // Printed after a pause, so the wait (which matches only later output) has begun by then.
  await server.tmux("send-keys", "-t", user, "sleep 0.3; echo piped-$((40+2))", "Enter");
  const waited = await server.call<{ matched: boolean }>("wait_for_text", {
    pane_id: user,
    pattern: "piped-42",
    timeout_ms: 10_000,
  });
  assert.equal(waited.matched, true);
  const log = await until(
    () => server.call<{ content: string }>("read_logs", { pane_id: user }),
    (r) => /^piped-42$/m.test(r.content),
  );
  assert.match(log.content, /piped-42/);
  const since = await server.call<{ text: string }>("capture_since", { cursor: first.cursor });
  assert.match(since.text, /^piped-42$/m, JSON.stringify(since));

  // Logging does not make the pane ours.
  const { panes } = await server.call<{ panes: { pane_id: string; owned: boolean }[] }>("list_panes");
  assert.equal(panes.find((p) => p.pane_id === user)?.owned, false);
  assert.match(await server.callError("kill_pane", { pane_id: user }), /^TIER_DENIED/);

  const stopped = await server.call<{ logged: boolean; stopped: boolean }>("pipe_pane", { pane_id: user, stop: true });
  assert.deepEqual([stopped.logged, stopped.stopped], [false, true]);
  assert.equal(await tmuxSays(server, user, "#{pane_pipe} [#{@tmuxwright_log}]"), "0 []");
  await server.tmux("send-keys", "-t", user, "echo after-$((1+1))", "Enter");
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: user }), (r) => /^after-2$/m.test(r.text));
  const kept = await server.call<{ content: string }>("read_logs", { pane_id: user });
  assert.match(kept.content, /piped-42/, "the stopped log stays readable");
  assert.doesNotMatch(kept.content, /^after-2$/m);

  // Owned panes are always logged; someone else's pipe is left alone.
  const own = (await server.call<Ids>("create_pane", { command: "sleep 600" })).pane_id;
  assert.match(
    await server.callError("pipe_pane", { pane_id: own, stop: true }),
    /^INVALID_ARGUMENT: Cannot stop logging/,
  );
  await server.tmux("pipe-pane", "-t", user, "cat > /dev/null");
  assert.match(await server.callError("pipe_pane", { pane_id: user }), /already pipes its output to another command/);
  assert.match(await server.callError("pipe_pane", { pane_id: user, stop: true }), /not started by this tmuxwright/);
  assert.equal(await tmuxSays(server, user, "#{pane_pipe}"), "1");
});

Deno.test("panes: a user's pane needs destructive for changes, the hub never; refusals change nothing", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const made = await server.tmux("new-session", "-d", "-s", "user", "-x", "120", "-y", "30", "-P", "-F", "#{pane_id}");
  const user = made.stdout.trim();
  await server.tmux("split-window", "-h", "-t", user, "sleep 600");
  await server.tmux("select-pane", "-t", user, "-T", "theirs");
  const own = (await server.call<Ids>("create_pane", { command: "sleep 600" })).pane_id;
  const before = await tmuxSays(server, user, "#{pane_pid} #{pane_title} #{pane_width} #{pane_active}");
  for (
    const [tool, args, action] of [
      ["select_pane", {}, "select"],
      ["swap_pane", { other_pane_id: own }, "swap"],
      ["resize_pane", { width: 30 }, "resize"],
      ["respawn_pane", {}, "respawn"],
      ["set_pane_title", { title: "mine" }, "set the title of"],
      ["clear_pane", {}, "clear"],
    ] as const
  ) {
    const text = await server.callError(tool, { pane_id: user, ...args });
    assert.match(text, new RegExp(`^TIER_DENIED: Cannot ${action} pane ${user}, which this server did not create`));
    assert.match(text, /--safety destructive/);
  }
  assert.equal(await tmuxSays(server, user, "#{pane_pid} #{pane_title} #{pane_width} #{pane_active}"), before);

  const hub = (await server.tmux("list-panes", "-t", `=tmuxwright-${server.pid}:0`, "-F", "#{pane_id}")).stdout.trim();
  for (const tool of ["select_pane", "respawn_pane", "set_pane_title", "clear_pane", "pipe_pane", "enter_copy_mode"]) {
    const text = await server.callError(tool, { pane_id: hub, title: "x" });
    assert.match(text, new RegExp(`^PROTECTED_TARGET: Cannot .* pane ${hub}: it keeps the workspace session alive`));
  }
});

Deno.test("panes: at destructive a user's pane can be respawned and retitled", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "destructive"] });
  const made = await server.tmux("new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", "sleep 600");
  const user = made.stdout.trim();
  const pid = await tmuxSays(server, user, "#{pane_pid}");
  await server.call("respawn_pane", { pane_id: user });
  assert.notEqual(await tmuxSays(server, user, "#{pane_pid}"), pid);
  assert.equal(await tmuxSays(server, user, "#{pane_current_command}"), "sleep", "a user's pane reruns its command");
  await server.call("set_pane_title", { pane_id: user, title: "renamed" });
  assert.equal(await tmuxSays(server, user, "#{pane_title}"), "renamed");
});

Deno.test("panes: logs started on a user's pane stop when the server exits", async () => {
  const server = await TestServer.start({ args: ["--tools", "all"] });
  try {
    const made = await server.tmux("new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", "sleep 600");
    const user = made.stdout.trim();
    await server.call("pipe_pane", { pane_id: user });
    assert.equal(await tmuxSays(server, user, "#{pane_pipe}"), "1");
    await server.close(false);
    await until(() => tmuxSays(server, user, "#{pane_pipe} [#{@tmuxwright_log}]"), (s) => s === "0 []");
  } finally {
    await server.close();
  }
});
