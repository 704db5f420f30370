/**
 * The state of a pane's foreground process, from the OS (Linux /proc), never from screen text.
 *
 * The terminal's foreground process group is field `tpgid` of /proc/<pane_pid>/stat (the pane's
 * first process is the session leader of the pty). Whether that group's leader waits for terminal
 * input is read from /proc/<pid>/syscall (which call it is blocked in, on which fd), with
 * /proc/<pid>/wchan as a fallback. What /proc cannot decide is `null` with a reason.
 */

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

/** Deno allows reading /proc/<pid>/* only with --allow-all; without it every answer is "unknown". */
export class ProcDenied extends Error {}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new ProcDenied(`cannot read ${path}: ${(error as Error).message}`);
    }
    return null;
  }
}

/** Fields of /proc/PID/stat after the command name: [0] = state (field 3), [5] = tpgid (field 8). */
export function statFields(pid: number): string[] | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Whether the process lives (a zombie does not); null when /proc cannot be read. */
export function processExists(pid: number): boolean | null {
  try {
    const fields = statFields(pid);
    return fields !== null && fields[0] !== "Z" && fields[0] !== "X";
  } catch {
    return null;
  }
}

function fdTarget(pid: number, fd: number): string | null {
  try {
    return Deno.readLinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return null;
  }
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
};

/** Reads the foreground process of the pane whose first process is `panePid`. */
export function readProcState(panePid: number): ProcState {
  const paneStat = statFields(panePid);
  if (paneStat === null) return { ...UNKNOWN, reason: "the pane's process is gone" };
  const tpgid = Number(paneStat[5]);
  const tty = fdTarget(panePid, 0);
  const fgPid = tpgid > 0 && statFields(tpgid) !== null ? tpgid : groupMember(tpgid) ?? panePid;
  const fgCommand = readText(`/proc/${fgPid}/comm`)?.trim() ?? null;
  const rawCmdline = readText(`/proc/${fgPid}/cmdline`);
  const fgCmdline = rawCmdline === null ? null : rawCmdline.replace(/\0$/, "").replaceAll("\0", " ").slice(0, 500);
  const base = {
    fgPid,
    fgCommand,
    fgCmdline,
    fgIsShell: fgCommand !== null && SHELLS.has(fgCommand.replace(/^-/, "")),
  };
  return { ...base, state: statFields(fgPid)?.[0] ?? null, ...waiting(fgPid, tty) };
}

/** Decides whether `pid` is blocked reading the terminal `tty`. */
function waiting(pid: number, tty: string | null): Pick<ProcState, "waitingForInput" | "reason" | "readsStdin"> {
  const no = (reason: string) => ({ waitingForInput: false, reason, readsStdin: false });
  const unknown = (reason: string) => ({ waitingForInput: null, reason, readsStdin: false });
  const state = statFields(pid)?.[0];
  if (state === undefined) return unknown("the foreground process is gone");
  if (state === "R") return no("running");
  if (state === "T" || state === "t") return no("stopped");
  if (state === "Z") return no("exited (zombie)");
  const syscall = readText(`/proc/${pid}/syscall`)?.trim();
  const table = SYSCALLS[Deno.build.arch];
  if (syscall && syscall !== "running" && table) {
    const [nr, ...args] = syscall.split(" ");
    const call = Number(nr);
    const arg0 = Number(args[0]);
    if (table.read.includes(call)) {
      const target = fdTarget(pid, arg0);
      if (tty !== null && target === tty) {
        return { waitingForInput: true, reason: `read(2) on the terminal (fd ${arg0})`, readsStdin: arg0 === 0 };
      }
      return no(`read(2) on ${target ?? `fd ${arg0}`}, not the terminal`);
    }
    if (table.select.includes(call)) {
      // select's first argument is nfds: 1 means fd 0 is the only descriptor watched.
      if (arg0 === 1 && tty !== null && fdTarget(pid, 0) === tty) {
        return { waitingForInput: true, reason: "select(2) on the terminal only", readsStdin: false };
      }
      return unknown(`select(2) on ${arg0} descriptors: cannot tell whether input is awaited`);
    }
    if (table.poll.includes(call)) {
      return unknown("poll/epoll: the watched descriptors are not visible in /proc");
    }
    return no(`blocked in syscall ${call}`);
  }
  const wchan = readText(`/proc/${pid}/wchan`)?.trim();
  if (wchan === "n_tty_read") return { waitingForInput: true, reason: "wchan n_tty_read", readsStdin: false };
  if (wchan && /poll|select|epoll/.test(wchan)) return unknown(`wchan ${wchan}: cannot tell which descriptors`);
  if (wchan && wchan !== "0") return no(`sleeping in ${wchan}`);
  return unknown("/proc/<pid>/syscall and wchan are not readable");
}

/** A live member of process group `pgid` when its leader has exited (rare: the leader of a pipeline ended). */
function groupMember(pgid: number): number | null {
  if (!(pgid > 0)) return null;
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const fields = statFields(Number(entry.name));
      if (fields && Number(fields[2]) === pgid && fields[0] !== "Z") return Number(entry.name);
    }
  } catch { /* /proc not listable */ }
  return null;
}

/**
 * Back at a shell prompt: the foreground process is a shell that is not running and not inside
 * read(2) on fd 0 (that is a `read` builtin). sh/dash read fd 0 at their prompt too, so for
 * them a `read` builtin also counts as the prompt.
 */
export function atShellPrompt(state: ProcState): boolean {
  if (!state.fgIsShell || state.waitingForInput === false) return false;
  if (state.readsStdin && LINE_EDITOR_SHELLS.has(state.fgCommand ?? "")) return false;
  return true;
}

/** A process (not a shell at its prompt) blocked reading the terminal. */
export function waitsForInput(state: ProcState): boolean {
  return state.waitingForInput === true && !atShellPrompt(state);
}

/** Alive/exit facts from tmux plus the foreground process from /proc. */
export interface PaneProcess {
  alive: boolean;
  exitCode: number | null;
  panePid: number | null;
  proc: ProcState | null;
}

export function paneProcess(pane: { dead: boolean; exitCode: number | null; pid: number | null }): PaneProcess {
  const alive = !pane.dead && pane.pid !== null && processExists(pane.pid) !== false;
  let proc: ProcState | null = null;
  if (alive && pane.pid !== null) {
    try {
      proc = readProcState(pane.pid);
    } catch (error) {
      if (!(error instanceof ProcDenied)) throw error;
      proc = { ...UNKNOWN, reason: "/proc/<pid> is not readable: tmuxwright needs --allow-all" };
    }
  }
  return { alive, exitCode: pane.dead ? pane.exitCode : null, panePid: pane.pid, proc };
}
