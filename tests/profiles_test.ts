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
      [["--tools", "everything"], /Invalid --tools "everything": expected one of core, agent, all/],
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
