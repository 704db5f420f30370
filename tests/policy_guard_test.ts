import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ALL_TOOLS } from "../src/mcp/tools/mod.ts";

/**
 * The command policy cannot be forgotten by a tool or an engine path added later: every tool
 * that takes a command or text for a pane, and every source file that types into panes or starts
 * programs, is either judged by the policy gate or listed here with the reason it needs not be.
 * (tests/policy_doors_test.ts shows each judged tool refusing a denied command on real tmux.)
 */
const JUDGED_TOOLS = new Set([
  "execute_command",
  "start_process",
  "create_pane",
  "split_pane",
  "create_window",
  "create_session",
  "respawn_pane",
  "send_keys",
  "paste_text",
  "run_in_repl",
  "paste_buffer",
  "set_environment",
]);
const NOT_JUDGED_TOOLS: Record<string, string> = {
  load_buffer: "the text only goes into a tmux buffer; paste_buffer judges it when it is pasted",
  set_pane_title: "a title is shown, never run (tmux escapes its #)",
  set_option: "options and hooks that run commands are refused at every tier (settings/policy.ts)",
  write_to_display: "the notes pane runs tmuxwright's own display program, not a shell",
  notify: "a status-line message, never run",
};
const COMMAND_FIELDS = ["command", "text", "keys", "input", "buffer", "value", "title", "env", "argv"];

Deno.test("every tool that takes a command or text for a pane is judged, or says why not", () => {
  const takes = ALL_TOOLS.filter((tool) => Object.keys(tool.input).some((key) => COMMAND_FIELDS.includes(key)))
    .map((tool) => tool.name).filter((name) => !["show_buffer", "delete_buffer"].includes(name));
  const unclassified = takes.filter((name) => !JUDGED_TOOLS.has(name) && !(name in NOT_JUDGED_TOOLS));
  assert.deepEqual(unclassified, [], "judge these with the policy gate (src/engine/policy/) or list them above");
  const names = new Set(ALL_TOOLS.map((tool) => tool.name));
  for (const name of [...JUDGED_TOOLS, ...Object.keys(NOT_JUDGED_TOOLS)]) assert.ok(names.has(name), name);
});

const SRC = new URL("../src", import.meta.url).pathname;
/** tmux commands that type into a pane or start a program. */
const STARTS_OR_TYPES =
  /"(send-keys|paste-buffer|split-window|new-window|new-session|respawn-pane|respawn-window)"|pasteBufferIfAlive\(|\.paste\(/;
/** Files that do, and how the policy reaches them: `gate` where they judge, or why they need not. */
const REVIEWED: Record<string, "gate" | string> = {
  "engine/exec/executor.ts": "gate",
  "engine/exec/type_marked.ts": "types only what Executor.execute and ProcessManager.start judged",
  "engine/exec/type_wrapped.ts": "types only what Executor.execute and ProcessManager.start judged",
  "engine/exec/signals.ts": "signals and Ctrl-C, no text",
  "engine/exec/status_probe.ts": "its own status probe (a printf of the last status), no caller's text",
  "engine/panes/workspace.ts": "gate",
  "engine/panes/pane_spawn.ts": "opens the pane whose command and environment Workspace.createPane judged",
  "engine/settings/environment.ts": "gate",
  "engine/panes/pane_ops.ts": "gate",
  "engine/panes/paste.ts": "the Paster: its callers judge (paste_text, run_in_repl, the bridge)",
  "engine/panes/workspace_session.ts": "the workspace's hub pane: tmuxwright's own program",
  "engine/panes/recent_panes.ts": "only names the tmux commands that leave a pane lookup valid; sends nothing",
  "engine/buffers/registry.ts": "paste_buffer judges the buffer before it pastes",
  "engine/display/display_pane.ts": "the notes pane runs tmuxwright's own display program",
  "engine/watch/repl.ts": "gate",
  "http/bridge/tmux_backend.ts": "gate",
  "mcp/tools/input.ts": "gate",
  "mcp/tools/buffers.ts": "gate",
  "mcp/tools/watch.ts": "run_in_repl: repl.ts judges",
  "tmux/guarded_paste.ts": "the paste primitive under Paster and buffers",
  "tmux/key_guard.ts": "send-keys' mode guard under every sender",
  "tmux/notifying.ts": "only names the tmux commands that need the session lock; sends nothing",
  "engine/facts/probe.ts": "a private tmux server of its own running cat, to ask it about /proc",
  "engine/watch/agent_turn.ts": "gate",
  "tmux/dialect.ts": "adapts the commands its callers send for the server's release (a paste's -S); sends nothing",
  "tmux/window_size.ts": "sizes the windows its callers' new-window and new-session made; starts nothing",
};

async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sources(path));
    else if (path.endsWith(".ts")) files.push(path);
  }
  return files;
}

Deno.test("every source file that types into panes or starts programs is judged by the gate or reviewed", async () => {
  const problems: string[] = [];
  for (const file of await sources(SRC)) {
    const name = relative(SRC, file);
    const text = await Deno.readTextFile(file);
    if (text.startsWith("// Generated by scripts/vendor_")) continue; // a third party's code, as published
    const starts = STARTS_OR_TYPES.test(text);
    const reviewed = REVIEWED[name];
    if ((starts || reviewed === "gate") && reviewed === undefined) {
      problems.push(`${name}: types into panes or starts programs; judge it`);
    }
    if (reviewed === "gate" && !/\bgate\b/.test(text)) problems.push(`${name}: lost its policy gate`);
  }
  assert.deepEqual(problems, []);
  // The composition root hands the gate to every executor and workspace it builds (local and remote).
  const app = await Deno.readTextFile(join(SRC, "app.ts"));
  const made = [...app.matchAll(/new (Executor|Workspace)\(([^;]*?)\);/gs)];
  assert.ok(made.length >= 4, "app.ts builds a local and a remote executor and workspace");
  for (const [, what, args] of made) assert.match(args, /\bgate\b/, `app.ts: new ${what}(…) without the gate`);
  const engineEntries = ["engine/exec/processes.ts", "engine/exec/executor.ts", "engine/panes/workspace.ts"];
  for (const name of engineEntries) {
    assert.match(await Deno.readTextFile(join(SRC, name)), /gate\??\.check\(/, name);
  }
});
