import type { PaneInfo } from "../panes/mod.ts";
import { readLogRange } from "../output/mod.ts";
import { MarkReader } from "../integration/mod.ts";
import { atShellPrompt, readProcState } from "../facts/mod.ts";
import type { WaitDeps } from "./scan_pane.ts";

/** How far back the log is read for the shell's last mark: a prompt and its marks are far shorter. */
const TAIL_BYTES = 4096;

/**
 * Whether an integrated shell's prompt mark is still on its way to the log from before the line
 * about to be typed: that mark says nothing of the line. The log may trail the terminal (a loaded
 * machine, a host's link): a wait that starts listening at the log's end can see the previous
 * prompt's mark, or a new pane's first one, after the typing. From the marks before `offset`:
 *
 * - the prompt's mark (P) or a continuation prompt's (C): the prompt is whole in the log: no;
 * - an end mark (E): the prompt after it is being drawn: yes;
 * - no mark in the whole log: a new shell has not drawn its first prompt yet: yes;
 * - a start mark (S), or no mark in the log's tail: a command runs. The pane's processes decide:
 *   the shell itself back at its prompt has a mark on the way; a program in front (vim, a server)
 *   reads the keys itself, and the next prompt is the answer.
 */
export async function promptMarkDue(deps: WaitDeps, pane: PaneInfo, offset: number): Promise<boolean> {
  if (!pane.marks || pane.logPath === null) return false;
  const from = Math.max(0, offset - TAIL_BYTES);
  const tail = await readLogRange(pane.logPath, from, offset).catch(() => new Uint8Array(0));
  const reader = new MarkReader(pane.marks.nonce);
  const marks = reader.push(tail, from);
  const last = marks.at(-1)?.kind;
  if (last === "P" || last === "C") return false;
  if (last === "E") return true;
  if (last === undefined && from === 0) return true;
  if (pane.pid === null) return false;
  const proc = readProcState(await deps.proc.look(pane.pid), pane.pid);
  return atShellPrompt(proc) && proc.fgPid === pane.pid;
}
