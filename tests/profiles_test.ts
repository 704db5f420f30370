import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer } from "./helpers/harness.ts";

Deno.test("--tools core with --tool-prefix lists exactly the five core tools, prefixed", async () => {
  await using s = await TestServer.start({ args: ["--tools", "core", "--tool-prefix", "tmux_"] });
  const names = (await s.client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(names, [
    "tmux_capture_pane",
    "tmux_create_pane",
    "tmux_kill_pane",
    "tmux_list_panes",
    "tmux_send_keys",
  ]);
  const pane = await s.call<{ pane_id: string }>("tmux_create_pane", {});
  assert.match(pane.pane_id, /^%\d+$/);
  // The instructions name only tools this profile has.
  const instructions = s.client.getInstructions() ?? "";
  assert.match(instructions, /send_keys/);
  assert.doesNotMatch(instructions, /execute_command|wait_for_text/);
});

Deno.test("profile and flags can come from the environment; flags win", async () => {
  await using s = await TestServer.start({
    env: { TMUXWRIGHT_TOOLS: "core", TMUXWRIGHT_TOOL_PREFIX: "env_" },
    args: ["--tool-prefix", "flag_"],
  });
  const names = (await s.client.listTools()).tools.map((t) => t.name);
  assert.equal(names.length, 5);
  assert.ok(names.every((n) => n.startsWith("flag_")), names.join(","));
});

Deno.test("an invalid flag value fails at start-up with a clear message", async () => {
  for (
    const [args, message] of [
      [["--tools", "everything"], /Invalid --tools "everything": expected one of core, agent, all, .*groups panes, /],
      [["--tools", "panes,nope"], /Invalid --tools "panes,nope"/],
      [["--safety", "yolo"], /Invalid --safety "yolo": expected one of readonly, mutating, destructive/],
      [["--no-such-flag"], /Unknown option '--no-such-flag'.*--help/],
    ] as const
  ) {
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(), new URL("../main.ts", import.meta.url).pathname, ...args],
      env: cleanEnv(),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 2, args.join(" "));
    assert.match(new TextDecoder().decode(out.stderr), message);
  }
});

Deno.test("--tools takes a comma list of groups and profiles; each tool belongs to exactly the groups named", async () => {
  await using groups = await TestServer.start({ args: ["--tools", "sessions,windows"] });
  const names = (await groups.client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes("create_session") && names.includes("move_window"), names.join(","));
  assert.ok(!names.includes("create_pane") && !names.includes("execute_command"), names.join(","));
  assert.match(groups.client.getInstructions() ?? "", /session \$N/);
  const session = await groups.call<{ session_id: string }>("create_session", { name: "grp" });
  assert.match(session.session_id, /^\$\d+$/);

  await using mixed = await TestServer.start({ env: { TMUXWRIGHT_TOOLS: "core,sessions" } });
  const mixedNames = (await mixed.client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(mixedNames, [
    "capture_pane",
    "create_pane",
    "create_session",
    "kill_pane",
    "kill_session",
    "list_panes",
    "list_sessions",
    "rename_session",
    "send_keys",
  ]);
});

Deno.test("every tool belongs to a known group, and every group has tools", async () => {
  const { ALL_TOOLS } = await import("../src/mcp/tools/mod.ts");
  const { TOOL_GROUPS } = await import("../src/config.ts");
  const groups = new Set(ALL_TOOLS.map((t) => t.group));
  assert.deepEqual([...groups].sort(), [...TOOL_GROUPS].sort());
  assert.equal(new Set(ALL_TOOLS.map((t) => t.name)).size, ALL_TOOLS.length, "tool names are unique");
});
