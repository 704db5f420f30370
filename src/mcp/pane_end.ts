import type { PaneExit } from "../engine/watch/mod.ts";

/**
 * How a wait that ended with its pane reads to an agent: the pane's program exited → the wait's
 * usual result with trigger `exit`, its status and `pane_dead`; removed or tmux gone → an error.
 */
export const PANE_EXIT_RESULT = {
  trigger: "exit: the pane's program exited during the wait (or before it: already)",
  exit_code: "with exit: its status (128+N after signal N; null: not reported)",
  signal: "with exit, when a signal ended it: its number",
  pane_dead: "with exit: the pane's program ended (the pane stays, dead)",
  already: "with exit: it had exited before the call began",
};

export const PANE_END_ERRORS = {
  PANE_GONE: "the pane was removed during the wait (the message says by whom)",
  TMUX_UNAVAILABLE:
    "tmux is missing or its server cannot be reached, or it ended during the wait (the next call reconnects)",
};

export function exitFields(exit: PaneExit): Record<string, unknown> {
  return {
    trigger: "exit",
    exit_code: exit.exitCode,
    ...(exit.signal === null ? {} : { signal: exit.signal }),
    pane_dead: true,
    ...(exit.already ? { already: true } : {}),
  };
}

/** watch_pane / send_keys wait: the pane's own program ended (the trigger and status are already in the result). */
export function paneExitFields(exit: { signal: number | null; lastLines: string[] } | undefined) {
  if (!exit) return {};
  return { ...(exit.signal === null ? {} : { signal: exit.signal }), pane_dead: true, last_lines: exit.lastLines };
}
