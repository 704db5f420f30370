/**
 * The state of a pane's foreground process, from the OS (Linux /proc), never from screen text.
 *
 * The terminal's foreground process group is field `tpgid` of /proc/<pane_pid>/stat (the pane's
 * first process is the session leader of the pty). Whether that group's leader waits for terminal
 * input is read from /proc/<pid>/syscall (which call it is blocked in, on which fd), with
 * /proc/<pid>/wchan as a fallback. What /proc cannot decide is `null` with a reason. The files
 * come from a `ProcReader` snapshot (the sandboxed server cannot read /proc itself).
 */
import type { ProcFiles, ProcReader } from "./proc_reader.ts";

export interface ProcState {
  /** Leader of the terminal's foreground process group. */
  fgPid: number | null;
  /** Its short command name (/proc/<pid>/comm). */
  fgCommand: string | null;
  /** Its full command line, bounded. */
  fgCmdline: string | null;
  /** The foreground process is a known shell. */
  fgIsShell: boolean;
  /** true: blocked reading the terminal; false: running or blocked on something else; null: undecidable. */
  waitingForInput: boolean | null;
  /** How the answer was decided, or why it could not be. */
  reason: string;
  /** Scheduler state of the foreground process (R running, S sleeping, T stopped …). */
  state: string | null;
  /** Blocked in read(2) on fd 0 (a `read` builtin, `cat`, `input()`), as opposed to a line editor. */
  readsStdin: boolean;
  /**
   * The terminal is in non-canonical mode (`-icanon`): a program reads single keys (node's
   * readline, fish's reader, full-screen programs). Null unless the snapshot read the modes.
   */
  rawTerminal: boolean | null;
  /** The process waitingForInput is about: the leader, or a descendant it waits for (git's editor). */
  inputPid: number | null;
  inputCommand: string | null;
}

/** Shells whose foreground presence means "at a prompt" (see `atShellPrompt`). */
export const SHELLS = new Set([
  "bash",
  "zsh",
  "fish",
  "sh",
  "dash",
  "ksh",
  "mksh",
  "ksh93",
  "tcsh",
  "csh",
  "ash",
  "busybox",
  "nu",
  "xonsh",
  "elvish",
  "pwsh",
  "yash",
  "oksh",
]);
// Shells whose line editor waits in select/poll or reads a dup of the terminal, never read(2) on fd 0.
const LINE_EDITOR_SHELLS = new Set(["bash", "zsh", "fish", "nu", "xonsh", "elvish", "pwsh"]);

const SYSCALLS: Record<string, { read: number[]; select: number[]; poll: number[] }> = {
  x86_64: { read: [0, 17, 19, 295], select: [23, 270], poll: [7, 271, 232, 281, 441] },
  aarch64: { read: [63, 65, 67, 69], select: [72], poll: [73, 22, 441] },
};

function readText(files: ProcFiles, path: string): string | null {
  return files.get(path) ?? null;
}

/** Fields of /proc/PID/stat after the command name: [0] = state (field 3), [2] = pgrp, [5] = tpgid (field 8). */
export function statFields(files: ProcFiles, pid: number): string[] | null {
  const stat = readText(files, `/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Whether the process lives (a zombie does not); null when the snapshot could not be taken. */
export function processExists(files: ProcFiles, pid: number): boolean | null {
  if (!files.has("ok")) return null;
  const fields = statFields(files, pid);
  return fields !== null && fields[0] !== "Z" && fields[0] !== "X";
}

function fdTarget(files: ProcFiles, pid: number, fd: number): string | null {
  return readText(files, `/proc/${pid}/fd/${fd}`);
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
 * group's leader has exited (the first command of a pipeline ended) the snapshot has no files for
 * it and the answer falls back to the pane's own process.
 */
export function readProcState(files: ProcFiles, panePid: number): ProcState {
  if (!files.has("ok")) return { ...UNKNOWN, reason: "/proc could not be read" };
  const paneStat = statFields(files, panePid);
  if (paneStat === null) return { ...UNKNOWN, reason: "the pane's process is gone" };
  const tpgid = Number(paneStat[5]);
  const tty = fdTarget(files, panePid, 0);
  const fgPid = tpgid > 0 && statFields(files, tpgid) !== null ? tpgid : panePid;
  const fgCommand = readText(files, `/proc/${fgPid}/comm`)?.trim() ?? null;
  const rawCmdline = readText(files, `/proc/${fgPid}/cmdline`);
  const fgCmdline = rawCmdline === null ? null : rawCmdline.trimEnd().slice(0, 500);
  const base = {
    fgPid,
    fgCommand,
    fgCmdline,
    fgIsShell: fgCommand !== null && SHELLS.has(fgCommand.replace(/^-/, "")),
  };
  const stty = files.get("stty");
  const rawTerminal = stty === undefined ? null : /(?:^|\s)-icanon(?:\s|;|$)/m.test(stty);
  // Who reads the terminal: the leader, or a descendant it waits for (git's editor).
  const { pid, decided } = reader(files, fgPid, tty, tpgid > 0 ? String(tpgid) : null);
  const inputCommand = pid === fgPid ? fgCommand : readText(files, `/proc/${pid}/comm`)?.trim() ?? null;
  return { ...base, state: statFields(files, pid)?.[0] ?? null, ...decided, rawTerminal, inputPid: pid, inputCommand };
}

/**
 * The leader when it reads the terminal or runs; when it sleeps on something else (waiting for a
 * child), its youngest descendant in the foreground group that reads or may read the terminal.
 */
function reader(files: ProcFiles, leader: number, tty: string | null, group: string | null) {
  const first = { pid: leader, decided: waiting(files, leader, tty) };
  if (first.decided.waitingForInput !== false || statFields(files, leader)?.[0] !== "S") return first;
  // A pipeline whose leader has ended (`seq 9 | less`) is looked for under the pane's shell.
  let pid = leader;
  for (let depth = 0; depth < 3; depth++) {
    const child = Number(readText(files, `/proc/${pid}/task/${pid}/children`)?.trim().split(" ").at(-1));
    if (!Number.isSafeInteger(child) || child <= 0 || statFields(files, child)?.[2] !== group) return first;
    const decided = waiting(files, child, tty);
    if (decided.waitingForInput !== false) return { pid: child, decided };
    pid = child;
  }
  return first;
}

/** Decides whether `pid` is blocked reading the terminal `tty`. */
function waiting(
  files: ProcFiles,
  pid: number,
  tty: string | null,
): Pick<ProcState, "waitingForInput" | "reason" | "readsStdin"> {
  const no = (reason: string) => ({ waitingForInput: false, reason, readsStdin: false });
  const unknown = (reason: string) => ({ waitingForInput: null, reason, readsStdin: false });
  const state = statFields(files, pid)?.[0];
  if (state === undefined) return unknown("the foreground process is gone");
  if (state === "R") return no("running");
  if (state === "T" || state === "t") return no("stopped");
  if (state === "Z") return no("exited (zombie)");
  const syscall = readText(files, `/proc/${pid}/syscall`)?.trim();
  const table = SYSCALLS[Deno.build.arch];
  if (syscall && syscall !== "running" && table) {
    const [nr, ...args] = syscall.split(" ");
    const call = Number(nr);
    const arg0 = Number(args[0]);
    if (table.read.includes(call)) {
      const target = fdTarget(files, pid, arg0);
      // /dev/tty is the process's controlling terminal (less and ssh open it): the pane's, for its programs.
      if (tty !== null && (target === tty || target === "/dev/tty")) {
        return { waitingForInput: true, reason: `read(2) on the terminal (fd ${arg0})`, readsStdin: arg0 === 0 };
      }
      return no(`read(2) on ${target ?? `fd ${arg0}`}, not the terminal`);
    }
    if (table.select.includes(call)) {
      // select's first argument is nfds: 1 means fd 0 is the only descriptor watched.
      if (arg0 === 1 && tty !== null && fdTarget(files, pid, 0) === tty) {
        return { waitingForInput: true, reason: "select(2) on the terminal only", readsStdin: false };
      }
      return unknown(`select(2) on ${arg0} descriptors: cannot tell whether input is awaited`);
    }
    if (table.poll.includes(call)) {
      return unknown("poll/epoll: the watched descriptors are not visible in /proc");
    }
    return no(`blocked in syscall ${call}`);
  }
  const wchan = readText(files, `/proc/${pid}/wchan`)?.trim();
  if (wchan === "n_tty_read") return { waitingForInput: true, reason: "wchan n_tty_read", readsStdin: false };
  if (wchan && /poll|select|epoll/.test(wchan)) return unknown(`wchan ${wchan}: cannot tell which descriptors`);
  if (wchan && wchan !== "0") return no(`sleeping in ${wchan}`);
  return unknown("/proc/<pid>/syscall and wchan are not readable");
}

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
 * /proc cannot tell (poll/epoll), a program other than the pane's shell that put the terminal in
 * raw mode and left an unfinished line (a question) on it. Needs a snapshot with the terminal's modes.
 */
export function asksForInput(state: ProcState, panePid: number | null, unfinishedLine: boolean): boolean {
  const paneShell = state.fgPid === panePid;
  if (state.waitingForInput === true) return !(paneShell && atShellPrompt(state));
  return state.waitingForInput === null && !paneShell && state.rawTerminal === true && unfinishedLine;
}

/** Alive/exit facts from tmux plus the foreground process from /proc. */
export interface PaneProcess {
  alive: boolean;
  exitCode: number | null;
  panePid: number | null;
  proc: ProcState | null;
}

export async function paneProcess(
  reader: ProcReader,
  pane: { dead: boolean; exitCode: number | null; pid: number | null },
): Promise<PaneProcess> {
  if (pane.dead || pane.pid === null) {
    return { alive: false, exitCode: pane.dead ? pane.exitCode : null, panePid: pane.pid, proc: null };
  }
  const files = await reader.snapshot(pane.pid);
  const alive = processExists(files, pane.pid) !== false;
  return { alive, exitCode: null, panePid: pane.pid, proc: alive ? readProcState(files, pane.pid) : null };
}
