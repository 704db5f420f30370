import type { TmuxServer } from "../../tmux/server.ts";
import { formatProblem } from "../../safety/patterns.ts";

/**
 * Options an agent may not set at any tier, and why. Each would let a value run commands later,
 * outside any tool call: aliases can redirect this server's own commands, the default shell and
 * command run in every pane a person opens later, and tmuxwright's own marks decide ownership.
 */
const DENIED: [RegExp, string][] = [
  [/^@tmuxwright/, "tmuxwright's own marks decide which panes it owns and logs"],
  [/^command-alias/, "an alias can turn any tmux command into another"],
  [/^(default-command|default-shell|lock-command)$/, "it runs a program in panes a person opens later"],
];

/** Why `set_option` must refuse this option or value, or null. Hooks are options in tmux 3.x: refused too. */
export async function optionProblem(tmux: TmuxServer, name: string, value: string | null): Promise<string | null> {
  const bare = name.replace(/\[\d+\]$/, "");
  for (const [pattern, why] of DENIED) if (pattern.test(bare)) return `setting ${bare} is not allowed: ${why}`;
  if (!bare.startsWith("@")) {
    const [session, window] = await tmux.batch([["show-hooks", "-g"], ["show-hooks", "-g", "-w"]]);
    const hooks = new Set([...session, ...window].map((line) => line.split(/[\[ ]/)[0]));
    if (hooks.has(bare)) return `${bare} is a hook, which runs commands; hooks are read-only here (show_hooks)`;
  }
  if (value !== null) {
    const problem = formatProblem(value);
    if (problem) return `the value ${problem}`;
  }
  return null;
}
