import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { foreground, shellKind } from "./shell.ts";
import type { JobTable } from "./jobs.ts";
import { type Typed, wakeOn } from "./typed.ts";

/** After Ctrl-C, how long the shell may take to have the terminal again. */
export const INTERRUPT_GRACE_MS = 2000;

/**
 * After Ctrl-C: waits for the end marker or the shell's prompt; false if the command kept running
 * (the job table goes on following it). Back at the prompt without a marker, the status is lost.
 */
export async function settleAfterInterrupt(
  tmux: TmuxServer,
  jobs: JobTable,
  pane: PaneInfo,
  typed: Typed,
  deadline = performance.now() + INTERRUPT_GRACE_MS,
): Promise<boolean> {
  while (performance.now() < deadline) {
    if (typed.scanner.end) return true;
    const state = await foreground(tmux, pane.paneId);
    // Back at the shell: the program that was there when the command was typed (`sh -c` in a dash pane is not).
    if (state.dead || (shellKind(state.command) && state.command === typed.shellName)) {
      if (!state.dead) jobs.current(pane.paneId)?.record(null);
      return !state.dead;
    }
    await wakeOn(typed.changed(), 10);
  }
  return false;
}
