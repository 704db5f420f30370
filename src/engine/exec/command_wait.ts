import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { PaneEnds } from "../watch/mod.ts";
import { deadlineCame } from "../errors.ts";
import { foreground } from "./shell.ts";
import { type Typed, wakeOn } from "./typed.ts";
import type { InputProbe } from "./input_probe.ts";
import { drained, watchEnd } from "./pane_end_wait.ts";
import type { ExecOptions } from "./exec_result.ts";

/** How a typed command's wait ended: its end mark, the deadline, a cancel, its shell gone, or a question. */
export type CommandOutcome = "done" | "timeout" | "aborted" | "shell_gone" | "input";

const TICK_MS = 250;

/** The pane's tmux server, and where a pane's end is told (absent: only the shell's own end is seen). */
export interface CommandWaitDeps {
  tmux: TmuxServer;
  ends?: PaneEnds;
}

/**
 * Waits for a typed command: its end mark, the call's deadline (or cancellation), the pane's end
 * (PaneEnds), the shell itself gone (asked aside every TICK_MS), or a question the command asks
 * (the probe). Wakes on new output; progress about once a second.
 */
export async function awaitCommand(
  deps: CommandWaitDeps,
  pane: PaneInfo,
  typed: Typed,
  started: number,
  deadline: number,
  options: Pick<ExecOptions, "signal" | "onProgress">,
  probe: InputProbe | null,
): Promise<CommandOutcome> {
  const ended = watchEnd(deps.ends, pane);
  try {
    let nextProgress = started + 1000;
    let nextTick = started + TICK_MS;
    // Whether the shell itself ended, asked aside every TICK_MS: an end mark never waits for the answer.
    let asking: Promise<void> | null = null;
    let gone = false;
    for (;;) {
      if (typed.scanner.end) return "done";
      if (options.signal?.aborted) return deadlineCame(options.signal) ? "timeout" : "aborted";
      if (gone) return "shell_gone";
      if (ended.end) {
        // The pane was removed or tmux ended: PANE_GONE / TMUX_UNAVAILABLE. Its shell exited: as `exit` does.
        if (ended.end.kind !== "exited") throw ended.end.error;
        await drained(typed, pane);
        if (typed.scanner.end) return "done";
        return "shell_gone";
      }
      probe?.tick();
      if (probe?.waiting) return "input";
      const now = performance.now();
      if (now >= deadline) return "timeout";
      if (now >= nextTick && asking === null) {
        nextTick = now + TICK_MS;
        asking = foreground(deps.tmux, typed.paneId)
          .then((state) => void (gone = state.dead && !(state.gone && deps.ends)), () => {}) // removed: PANE_GONE
          .finally(() => asking = null);
      }
      if (now >= nextProgress) {
        options.onProgress?.(now - started);
        nextProgress += 1000;
      }
      const wake = Math.min(nextTick, deadline, nextProgress, probe?.nextAt ?? Infinity) - now;
      const answered = probe?.answered() ?? new Promise<void>(() => {});
      const events = [typed.changed(), answered, ended.seen, asking ?? new Promise<void>(() => {})];
      await wakeOn(Promise.race(events), wake, options.signal);
    }
  } finally {
    ended.stop();
  }
}
