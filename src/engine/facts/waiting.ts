import type { Look } from "./look.ts";
import { terminalReadIsBuiltin } from "./shells.ts";
import { wchanMeaning } from "./wchan.ts";

/** Whether a process is blocked reading the terminal, how that was decided, and on which descriptor. */
export interface Waiting {
  /** true: blocked reading the terminal; false: running or blocked on something else; null: undecidable. */
  waitingForInput: boolean | null;
  reason: string;
  /** Blocked in read(2) on fd 0 (a `read` builtin, `cat`, `input()`), as opposed to a line editor. */
  readsStdin: boolean;
}

const SYSCALLS: Record<string, { read: number[]; select: number[]; poll: number[] }> = {
  x86_64: { read: [0, 17, 19, 295], select: [23, 270], poll: [7, 271, 232, 281, 441] },
  aarch64: { read: [63, 65, 67, 69], select: [72], poll: [73, 22, 441] },
};

const no = (reason: string): Waiting => ({ waitingForInput: false, reason, readsStdin: false });
const unknown = (reason: string): Waiting => ({ waitingForInput: null, reason, readsStdin: false });

/** Decides whether `pid` is blocked reading the terminal `tty` (its path, /proc only). */
export function decideWaiting(look: Look, pid: number, tty: string | null): Waiting {
  const fact = look.facts.get(pid);
  if (fact === undefined) return unknown("the foreground process is gone");
  if (fact.state === "R") return no("running");
  if (fact.state === "T" || fact.state === "t") return no("stopped");
  if (fact.state === "Z") return no("exited (zombie)");
  if (look.backend === "proc") {
    const decided = fromSyscall(look, pid, tty);
    if (decided) return decided;
  }
  return fromWchan(look, fact.wchan, fact.comm);
}

/** /proc/PID/syscall: the call it is blocked in and its first argument (the descriptor). */
function fromSyscall(look: Look, pid: number, tty: string | null): Waiting | null {
  const syscall = look.syscalls.get(pid);
  const table = SYSCALLS[Deno.build.arch];
  if (!syscall || syscall === "running" || !table) return null;
  const fds = look.fds.get(pid);
  const [nr, ...args] = syscall.split(" ");
  const call = Number(nr);
  const arg0 = Number(args[0]);
  if (table.read.includes(call)) {
    const target = fds?.get(arg0) ?? null;
    // /dev/tty is the process's controlling terminal (less and ssh open it): the pane's, for its programs.
    if (tty !== null && (target === tty || target === "/dev/tty")) {
      return { waitingForInput: true, reason: `read(2) on the terminal (fd ${arg0})`, readsStdin: arg0 === 0 };
    }
    return no(`read(2) on ${target ?? `fd ${arg0}`}, not the terminal`);
  }
  if (table.select.includes(call)) {
    // select's first argument is nfds: 1 means fd 0 is the only descriptor watched.
    if (arg0 === 1 && tty !== null && fds?.get(0) === tty) {
      return { waitingForInput: true, reason: "select(2) on the terminal only", readsStdin: false };
    }
    return unknown(`select(2) on ${arg0} descriptors: cannot tell whether input is awaited`);
  }
  if (table.poll.includes(call)) return unknown("poll/epoll: the watched descriptors are not visible in /proc");
  return no(`blocked in syscall ${call}`);
}

/** The wait channel alone (`ps`, or /proc where the syscall file is not readable). */
function fromWchan(look: Look, wchan: string | null, comm: string): Waiting {
  const source = look.backend === "proc" ? "/proc wchan" : "ps wchan";
  if (wchan === null) {
    return unknown(
      look.backend === "proc"
        ? "/proc/<pid>/syscall and wchan are not readable"
        : "ps: no wait channel reported (macOS reports none): cannot tell whether the terminal is read",
    );
  }
  const { meaning, note } = wchanMeaning(wchan);
  if (meaning === "terminal") {
    // Which descriptor is not visible: a shell whose prompt polls, seen reading, runs a `read` builtin.
    const readsStdin = look.backend === "ps" && terminalReadIsBuiltin(comm);
    return { waitingForInput: true, reason: `${source} ${wchan}: ${note}`, readsStdin };
  }
  if (meaning === "poll") return unknown(`${source} ${wchan}: ${note}, which ones is not visible`);
  return no(`${source} ${wchan}: sleeping in ${wchan}`);
}
