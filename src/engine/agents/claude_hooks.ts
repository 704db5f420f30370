import { join } from "node:path";
import type { AgentActivity } from "./cli.ts";

/**
 * Claude Code's own signals: its hooks, set only in the panes tmuxwright starts. Every owned pane
 * on this machine starts with `CLAUDE_CODE_PLUGIN_DIRS` naming a plugin in the state directory
 * (Claude Code loads the plugins an environment variable names, as `--plugin-dir` does); its hooks
 * run one small script that writes the event (Claude Code's JSON, for a REPL turn: the prompt's id,
 * the last message) to `events/PID.EVENT.json` and puts `EVENT PID` in the pane's option
 * `@tmuxwright_cli_state` (for pane_state and /watch, on any tmuxwright of that tmux server). A
 * person's own settings are never touched; a Claude Code started elsewhere has no such hooks and
 * is read from its screen.
 */

/** The events, by the hooks that send them. */
export type HookEvent = "start" | "prompt" | "tool" | "ask" | "stop" | "end";

const HOOKS: Record<string, HookEvent> = {
  SessionStart: "start",
  UserPromptSubmit: "prompt",
  PreToolUse: "tool",
  PostToolUse: "tool",
  PostToolUseFailure: "tool",
  PermissionRequest: "ask",
  Stop: "stop",
  StopFailure: "stop",
  SessionEnd: "end",
};

/** The pane option the hooks set: `EVENT PID` (PID: the Claude Code process, as its hooks see it). */
export const CLI_STATE_OPTION = "@tmuxwright_cli_state";

const ACTIVITY: Record<HookEvent, AgentActivity | null> = {
  start: "idle",
  prompt: "working",
  tool: "working",
  ask: "asking",
  stop: "idle",
  end: null,
};

/** The hooks' state of a pane, when it comes from the Claude Code process `pid` (a nested one's does not count). */
export function hookActivity(option: string, pid: number): AgentActivity | null {
  const [event, from] = option.trim().split(" ");
  if (Number(from) !== pid || !(event in ACTIVITY)) return null;
  return ACTIVITY[event as HookEvent];
}

/**
 * The hook script. It never fails or slows a turn: every error is dropped, and Claude Code gives a
 * hook 5 s. `CLAUDE_PID` is the Claude Code process; a Claude Code started by another one's tool
 * inherits the pane but not the pid, so its events are told apart.
 */
const SCRIPT = `#!/bin/sh
# tmuxwright: tells the tmuxwright that started this pane what Claude Code is doing (see claude_hooks.ts).
event=$1
pid=\${CLAUDE_PID:-}
case "$event:$pid" in *[!a-z0-9:]*|*: ) cat >/dev/null 2>&1; exit 0 ;; esac
events=$(dirname "$0")/../../events
umask 077
mkdir -p "$events" 2>/dev/null
if cat > "$events/$pid.$event.tmp" 2>/dev/null; then mv -f "$events/$pid.$event.tmp" "$events/$pid.$event.json" 2>/dev/null; fi
# The pane's option in the background: Claude Code waits for this script, not for tmux.
if [ -n "\${TMUX_PANE:-}" ]; then
  (tmux set-option -p -t "$TMUX_PANE" ${CLI_STATE_OPTION} "$event $pid" &) </dev/null >/dev/null 2>&1
fi
exit 0
`;

function pluginFiles(): Record<string, string> {
  const hooks: Record<string, unknown[]> = {};
  for (const [hook, event] of Object.entries(HOOKS)) {
    const command = `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/signal.sh" ${event}`;
    // Not `async`: Claude Code then runs them late, or not at all (a Stop seen missing); the script is quick.
    hooks[hook] = [{ hooks: [{ type: "command", command, timeout: 5 }] }];
  }
  return {
    ".claude-plugin/plugin.json": JSON.stringify(
      {
        name: "tmuxwright-signals",
        version: "1.0.0",
        description: "Tells tmuxwright when this session works, waits for its person or asks them (panes it started)",
      },
      null,
      2,
    ),
    "hooks/hooks.json": JSON.stringify({ hooks }, null, 2),
    "hooks/signal.sh": SCRIPT,
  };
}

/** Where the plugin and its events live in a state directory. */
export function claudeHookPaths(stateDir: string): { plugin: string; events: string } {
  const root = join(stateDir, "agents", "claude");
  return { plugin: join(root, "plugin"), events: join(root, "events") };
}

/** Writes the plugin (again: a newer tmuxwright may have changed it); events older than a day go. */
export async function prepareClaudeHooks(stateDir: string): Promise<void> {
  const { plugin, events } = claudeHookPaths(stateDir);
  for (const [path, text] of Object.entries(pluginFiles())) {
    const file = join(plugin, path);
    await Deno.mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
    if (await Deno.readTextFile(file).catch(() => null) === text) continue;
    // Beside, then renamed: a Claude Code starting meanwhile (another server's pane) reads a whole file.
    const staged = `${file}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(staged, text, { mode: 0o600 });
    await Deno.rename(staged, file);
  }
  await Deno.mkdir(events, { recursive: true, mode: 0o700 });
  const old = Date.now() - 24 * 3600_000;
  for await (const entry of Deno.readDir(events)) {
    const path = join(events, entry.name);
    const info = await Deno.stat(path).catch(() => null);
    if (info?.mtime && info.mtime.getTime() < old) await Deno.remove(path).catch(() => {});
  }
}

/**
 * What an owned pane on this machine starts with, so a Claude Code started in it loads the hooks
 * (nothing for a state directory whose path holds `:`, the variable's separator).
 */
export function claudeHooksEnv(stateDir: string): Record<string, string> {
  const { plugin } = claudeHookPaths(stateDir);
  return plugin.includes(":") ? {} : { CLAUDE_CODE_PLUGIN_DIRS: plugin };
}
