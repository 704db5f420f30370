import type { TmuxServer } from "../../tmux/server.ts";
import type { OptionTarget } from "./options.ts";

export interface HookEntry {
  hook: string;
  index: number | null;
  command: string;
}

/**
 * Hooks that are set (tmux also lists every unset hook name): the global ones (session and
 * window/pane trees merged) or those of one session, window or pane.
 */
export async function showHooks(tmux: TmuxServer, target: OptionTarget): Promise<HookEntry[]> {
  const lists = target === null ? await tmux.batch([["show-hooks", "-g"], ["show-hooks", "-g", "-w"]]) : [
    await tmux.run(
      "show-hooks",
      ...(target.kind === "session"
        ? ["-t", `${target.id}:`]
        : [target.kind === "window" ? "-w" : "-p", "-t", target.id]),
    ),
  ];
  const entries: HookEntry[] = [];
  for (const line of lists.flat()) {
    const match = /^([a-z-]+)(?:\[(\d+)\])? (.+)$/.exec(line);
    if (match) {
      entries.push({ hook: match[1], index: match[2] === undefined ? null : Number(match[2]), command: match[3] });
    }
  }
  return entries;
}
