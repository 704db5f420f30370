import { type Look, processExists, youngestChildIn } from "./look.ts";
import { isShell } from "./shells.ts";
import { decideWaiting, type Waiting } from "./waiting.ts";

/**
 * The state of a pane's foreground process, from the OS, never from screen text: derived here,
 * in one place, from one look (either backend). The terminal's foreground process group is the
 * pane process's `tpgid` (the pane's first process leads the pty's session). What a backend
 * cannot decide is `null` with a reason that names it.
 */
export interface ProcState {
  /** Leader of the terminal's foreground process group. */
  fgPid: number | null;
  /** Its short command name. */
  fgCommand: string | null;
  /** Its full command line, bounded. */
  fgCmdline: string | null;
  /** The foreground process is a known shell. */
  fgIsShell: boolean;
  /** true: blocked reading the terminal; false: running or blocked on something else; null: undecidable. */
  waitingForInput: boolean | null;
  /** How the answer was decided, or why it could not be. */
  reason: string;
  /** Scheduler state of the process `inputPid` (R running, S sleeping, T stopped …). */
  state: string | null;
  /** Blocked in read(2) on fd 0 (a `read` builtin, `cat`, `input()`), as opposed to a line editor. */
  readsStdin: boolean;
  /**
   * The terminal is in non-canonical mode (`-icanon`): a program reads single keys (node's
   * readline, fish's reader, full-screen programs). Null unless the look read the modes.
   */
  rawTerminal: boolean | null;
  /** The process waitingForInput is about: the leader, or a descendant it waits for (git's editor). */
  inputPid: number | null;
  inputCommand: string | null;
}

const UNKNOWN: ProcState = {
  fgPid: null,
  fgCommand: null,
  fgCmdline: null,
  fgIsShell: false,
  waitingForInput: null,
  reason: "",
  readsStdin: false,
  state: null,
  rawTerminal: null,
  inputPid: null,
  inputCommand: null,
};

/**
 * The foreground process of the pane whose first process is `panePid`. When the foreground
 * group's leader has exited (the first command of a pipeline ended) the look has no fact for it
 * and the answer falls back to the pane's own process.
 */
export function readProcState(look: Look, panePid: number): ProcState {
  if (!look.ran) {
    return { ...UNKNOWN, reason: look.backend === "proc" ? "/proc could not be read" : "ps could not be run" };
  }
  const pane = look.facts.get(panePid);
  if (pane === undefined) return { ...UNKNOWN, reason: "the pane's process is gone" };
  const tpgid = pane.tpgid ?? 0;
  const tty = look.fds.get(panePid)?.get(0) ?? null;
  const fgPid = tpgid > 0 && look.facts.has(tpgid) ? tpgid : panePid;
  const leader = look.facts.get(fgPid)!;
  const modes = look.terminalModes;
  const rawTerminal = modes === null ? null : /(?:^|\s)-icanon(?:\s|;|$)/m.test(modes);
  // Who reads the terminal: the leader, or a descendant it waits for (git's editor).
  const { pid, decided } = reader(look, fgPid, tty, tpgid > 0 ? tpgid : null);
  return {
    fgPid,
    fgCommand: leader.comm,
    fgCmdline: leader.args === null ? null : leader.args.slice(0, 500),
    fgIsShell: isShell(leader.comm),
    ...decided,
    state: look.facts.get(pid)?.state ?? null,
    rawTerminal,
    inputPid: pid,
    inputCommand: look.facts.get(pid)?.comm ?? null,
  };
}

/**
 * The leader when it reads the terminal or runs; when it sleeps on something else (waiting for a
 * child), its youngest descendant in the foreground group that reads or may read the terminal.
 * Where the backend shows no wait channel at all (macOS), a sleeping leader with a child in its
 * group is taken to wait for that child, as a shell running a program does.
 */
function reader(look: Look, leader: number, tty: string | null, group: number | null) {
  const first = { pid: leader, decided: decideWaiting(look, leader, tty) };
  const fact = look.facts.get(leader);
  const blind = first.decided.waitingForInput === null && look.backend === "ps" && fact?.wchan === null;
  if ((first.decided.waitingForInput !== false && !blind) || fact?.state !== "S" || group === null) return first;
  // A pipeline whose leader has ended (`seq 9 | less`) is looked for under the pane's shell.
  let found = first;
  let pid = leader;
  for (let depth = 0; depth < 3; depth++) {
    const child = youngestChildIn(look, pid, group);
    if (child === null) break;
    const decided: Waiting = decideWaiting(look, child, tty);
    // Blind, the deepest program in the group is the one in front; else the first that may read.
    if (blind) found = { pid: child, decided };
    else if (decided.waitingForInput !== false) return { pid: child, decided };
    pid = child;
  }
  return found;
}

/** Alive/exit facts from tmux plus the foreground process from one look. */
export interface PaneProcess {
  alive: boolean;
  exitCode: number | null;
  panePid: number | null;
  proc: ProcState | null;
}

/** Something that takes looks (ProcessFacts); the pane's state from one. */
export async function paneProcess(
  facts: { look(panePid: number): Promise<Look> },
  pane: { dead: boolean; exitCode: number | null; pid: number | null },
): Promise<PaneProcess> {
  if (pane.dead || pane.pid === null) {
    return { alive: false, exitCode: pane.dead ? pane.exitCode : null, panePid: pane.pid, proc: null };
  }
  const look = await facts.look(pane.pid);
  const alive = processExists(look, pane.pid) !== false;
  return { alive, exitCode: null, panePid: pane.pid, proc: alive ? readProcState(look, pane.pid) : null };
}
