import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

async function tmuxOut(server: TestServer, ...args: string[]): Promise<string> {
  const out = await server.tmux(...args);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

Deno.test("options: show global and per-target values, set and unset on what this server created", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const pane = await server.call<{ pane_id: string; window_id: string }>("create_pane", { command: "sleep 600" });

  const global = await server.call<{ name: string; value: string }>("show_option", { name: "history-limit" });
  assert.deepEqual(global, {
    name: "history-limit",
    value: await tmuxOut(server, "show-options", "-gv", "history-limit"),
  });

  const set = await server.call("set_option", {
    name: "@build",
    value: "green $HOME #{pane_id}",
    pane_id: pane.pane_id,
  });
  assert.deepEqual(set, { pane_id: pane.pane_id, name: "@build", value: "green $HOME #{pane_id}" });
  // Read through a format: tmux 3.4 and 3.5a print show-options' values escaped (`\$HOME`), formats are read exactly.
  assert.equal(
    await tmuxOut(server, "display-message", "-p", "-t", pane.pane_id, "#{@build}"),
    "green $HOME #{pane_id}",
  );
  assert.deepEqual(await server.call("show_option", { name: "@build", pane_id: pane.pane_id }), {
    pane_id: pane.pane_id,
    name: "@build",
    value: "green $HOME #{pane_id}",
    inherited: false,
  });

  // A window option not set on the window reads its global value, marked inherited.
  const mode = await server.call<{ value: string; inherited: boolean }>("show_option", {
    name: "mode-keys",
    window: pane.window_id,
  });
  assert.deepEqual([mode.value, mode.inherited], [await tmuxOut(server, "show-options", "-gwv", "mode-keys"), true]);
  await server.call("set_option", { name: "mode-keys", value: "vi", window: pane.window_id });
  assert.equal(await tmuxOut(server, "show-options", "-wv", "-t", pane.window_id, "mode-keys"), "vi");

  await server.call("set_option", { name: "@build", unset: true, pane_id: pane.pane_id });
  assert.doesNotMatch(await tmuxOut(server, "show-options", "-p", "-t", pane.pane_id), /@build/);
  assert.match(
    await server.callError("show_option", { name: "@build", pane_id: pane.pane_id }),
    /^NOT_FOUND: Option "@build" is not set here/,
  );
  assert.match(
    await server.callError("show_option", { name: "no-such-option" }),
    /^NOT_FOUND: .*not a tmux option.*show_option/,
  );

  const all = await server.call<{ options: string[] }>("show_option", { scope: "server" });
  assert.ok(all.options.some((line) => line.startsWith("buffer-limit ")), JSON.stringify(all).slice(0, 300));
});

Deno.test("options: global values and others' targets need destructive; hooks, aliases, jobs and own marks never", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const user = await tmuxOut(server, "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", "sleep 600");
  const before = await tmuxOut(server, "show-options", "-g");
  let text = await server.callError("set_option", { name: "status-left", value: "hi" });
  assert.match(text, /^TIER_DENIED: Cannot set a global option: needs safety tier "destructive"/);
  text = await server.callError("set_option", { name: "@x", value: "1", pane_id: user });
  assert.match(text, /^TIER_DENIED: Cannot set an option of something this server did not create/);
  text = await server.callError("set_option", { name: "@x", value: "1", session: "user" });
  assert.match(text, /^TIER_DENIED/);
  assert.equal(await tmuxOut(server, "show-options", "-g"), before);
  assert.equal(await tmuxOut(server, "show-options", "-p", "-t", user), "");
  assert.match(
    await server.callError("set_option", { name: "@x", value: "1", session: "user", pane_id: user }),
    /at most one/,
  );
  assert.match(await server.callError("set_option", { name: "@x" }), /Give a value, or unset: true/);
});

Deno.test("options at destructive: set globally; refused at any tier when a value could run commands", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "destructive"] });
  const user = await tmuxOut(server, "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", "sleep 600");
  await server.call("set_option", { name: "status-left", value: "[#{session_name}]" });
  assert.equal(await tmuxOut(server, "show-options", "-gv", "status-left"), "[#{session_name}]");
  await server.call("set_option", { name: "history-limit", value: "1234", session: "user" });
  assert.equal(await tmuxOut(server, "show-options", "-v", "-t", "user:", "history-limit"), "1234");

  const before = await tmuxOut(server, "show-options", "-g");
  const hooksBefore = await tmuxOut(server, "show-hooks", "-g");
  for (
    const [args, why] of [
      [{ name: "@tmuxwright_owner", value: String(server.pid), pane_id: user }, /decide which panes it owns/],
      [{ name: "after-new-window", value: "run-shell 'touch /tmp/tw-hook-canary'" }, /is a hook/],
      [{ name: "pane-died", value: "run-shell true", scope: "window" }, /is a hook/],
      [{ name: "command-alias[9]", value: "list-panes=run-shell true", scope: "server" }, /alias/],
      [{ name: "default-command", value: "touch /tmp/tw-canary" }, /panes a person opens later/],
      [{ name: "status-right", value: "#(touch /tmp/tw-status-canary)" }, /#\( \) runs shell commands/],
      [{ name: "status-right", value: "#{E:@payload}" }, /re-expand/],
    ] as const
  ) {
    const text = await server.callError("set_option", args);
    assert.match(text, /^INVALID_ARGUMENT: Cannot set option /);
    assert.match(text, why);
  }
  assert.equal(await tmuxOut(server, "show-options", "-g"), before);
  assert.equal(await tmuxOut(server, "show-hooks", "-g"), hooksBefore);
  assert.equal(await tmuxOut(server, "show-options", "-p", "-t", user), "");
});

Deno.test("environment and hooks: read, and set where allowed", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const session = await server.call<{ session_id: string }>("create_session", { name: "dev" });
  await server.tmux("new-session", "-d", "-s", "user");
  await server.tmux("set-environment", "-g", "TW_GLOBAL", "a b $c");
  await server.tmux("set-environment", "-g", "-r", "TW_GONE");
  const shown = await server.call<{ variables: Record<string, string | null> }>("show_environment", {});
  assert.equal(shown.variables.TW_GLOBAL, "a b $c");
  assert.equal(shown.variables.TW_GONE, null);
  assert.deepEqual(await server.call("show_environment", { name: "TW_GLOBAL" }), {
    variables: { TW_GLOBAL: "a b $c" },
  });

  await server.call("set_environment", { name: "TW_DEV", value: "1", session: "dev" });
  assert.equal(await tmuxOut(server, "show-environment", "-t", "dev", "TW_DEV"), "TW_DEV=1");
  const dev = await server.call<{ session_id: string; variables: Record<string, string> }>("show_environment", {
    session: "dev",
  });
  assert.deepEqual([dev.session_id, dev.variables.TW_DEV], [session.session_id, "1"]);
  await server.call("set_environment", { name: "TW_DEV", unset: true, session: "dev" });
  assert.doesNotMatch(await tmuxOut(server, "show-environment", "-t", "dev"), /TW_DEV/);
  assert.match(
    await server.callError("set_environment", { name: "TW_X", value: "1" }),
    /^TIER_DENIED: Cannot set the global environment/,
  );
  assert.match(
    await server.callError("set_environment", { name: "TW_X", value: "1", session: "user" }),
    /^TIER_DENIED/,
  );
  assert.doesNotMatch(await tmuxOut(server, "show-environment", "-g"), /TW_X/);

  await server.tmux("set-hook", "-g", "after-new-window", "display-message hi");
  await server.tmux("set-hook", "-t", "user", "session-renamed[3]", "display-message renamed");
  const global = await server.call<{ hooks: unknown[] }>("show_hooks", {});
  assert.deepEqual(global.hooks, [{ hook: "after-new-window", index: 0, command: "display-message hi" }]);
  const hooks = await server.call<{ session_id: string; hooks: unknown[] }>("show_hooks", { session: "user" });
  assert.deepEqual(hooks.hooks, [{ hook: "session-renamed", index: 3, command: "display-message renamed" }]);
});
