import type { ProcState } from "./proc_state.ts";
import { LINE_EDITOR_SHELLS } from "./shells.ts";

/**
 * Back at a shell prompt: the foreground process is a shell that is not running and not inside
 * read(2) on fd 0 (that is a `read` builtin). sh/dash read fd 0 at their prompt too, so for
 * them a `read` builtin also counts as the prompt.
 */
export function atShellPrompt(state: ProcState): boolean {
  if (!state.fgIsShell || state.waitingForInput === false || state.inputPid !== state.fgPid) return false;
  if (state.readsStdin && LINE_EDITOR_SHELLS.has(state.fgCommand ?? "")) return false;
  return true;
}

/** A process (not a shell at its prompt) blocked reading the terminal. */
export function waitsForInput(state: ProcState): boolean {
  return state.waitingForInput === true && !atShellPrompt(state);
}

/**
 * A process started in the pane asks for input: blocked reading the terminal (any process but the
 * pane's own shell at its prompt: a `read` builtin, `input()`, a nested shell's prompt), or, when
 * the OS cannot tell (poll/epoll, no wait channel), a program other than the pane's shell that put
 * the terminal in raw mode and left an unfinished line (a question) on it. Needs a look with the
 * terminal's modes.
 */
export function asksForInput(state: ProcState, panePid: number | null, unfinishedLine: boolean): boolean {
  const paneShell = state.fgPid === panePid;
  if (state.waitingForInput === true) return !(paneShell && atShellPrompt(state));
  return state.waitingForInput === null && !paneShell && state.rawTerminal === true && unfinishedLine;
}

/**
 * `waitsForInput`, or, where the OS cannot tell (a line editor's poll, a system with no wait
 * channel), a program other than a shell at its prompt that put the terminal in raw mode while
 * the cursor ends an unfinished line: a REPL's prompt, a question, a full-screen program's keys.
 */
export function waitsOnPerson(state: ProcState, unfinishedLine: () => Promise<boolean>): Promise<boolean> | boolean {
  if (waitsForInput(state)) return true;
  if (state.waitingForInput !== null || atShellPrompt(state) || state.rawTerminal !== true) return false;
  return unfinishedLine();
}
