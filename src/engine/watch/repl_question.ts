import type { PaneInfo } from "../panes/mod.ts";
import { processExists, readProcState } from "../facts/mod.ts";
import type { WaitDeps } from "./wait_output.ts";

/** How often a quiet REPL turn asks the OS whether the REPL reads the terminal. */
const LOOK_MS = 150;
/** Output quiet this long before a look counts. */
const QUIET_MS = 100;
/** Two looks this far apart, no output between: the REPL waits for an answer, not for a moment. */
const HOLD_MS = 250;

/**
 * Calls `asked` when the REPL reads the terminal while its prompt has not come back (a
 * program's `input()`, `readline()`): held over two looks with no output between. Where the OS
 * cannot tell (a line editor's poll, no wait channel), a raw terminal under an unfinished line
 * that is not the prompt counts, as for start_process. `quietSince` is when output last arrived;
 * `ready` says the input was echoed whole (until then the REPL still reads it). Returns the stop
 * function.
 */
export function watchForQuestion(
  deps: WaitDeps,
  pane: PaneInfo,
  quietSince: () => number,
  ready: () => boolean,
  unfinishedLine: () => boolean,
  asked: () => void,
): () => void {
  let firstYes: { at: number; output: number } | null = null;
  let looking = false;
  const look = async () => {
    const quiet = quietSince();
    if (looking || pane.pid === null || !ready() || performance.now() - quiet < QUIET_MS) return;
    looking = true;
    try {
      const look = await deps.proc.look(pane.pid, { terminal: true });
      const state = processExists(look, pane.pid) === true ? readProcState(look, pane.pid) : null;
      const reads = state !== null && (state.waitingForInput === true ||
        (state.waitingForInput === null && state.rawTerminal === true && unfinishedLine()));
      if (!reads || quietSince() !== quiet || (firstYes !== null && firstYes.output !== quiet)) {
        firstYes = null;
        return;
      }
      const now = performance.now();
      if (firstYes === null) firstYes = { at: now, output: quiet };
      else if (now - firstYes.at >= HOLD_MS) asked();
    } catch {
      firstYes = null; // tmux reconnecting: the next look tries again
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), LOOK_MS);
  return () => clearInterval(timer);
}
