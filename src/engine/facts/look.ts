/** Where process facts come from: Linux's /proc, or `ps` (procps on Linux, BSD ps on macOS and the BSDs). */
export type FactsBackend = "proc" | "ps";

export const FACTS_BACKENDS: readonly FactsBackend[] = ["proc", "ps"];

/** One process as one look saw it: the fields /proc and every `ps` both have. */
export interface ProcessFact {
  pid: number;
  ppid: number;
  pgid: number;
  /** The foreground process group of its controlling terminal (null: none). */
  tpgid: number | null;
  /** R running, S sleeping, D uninterruptible, T stopped, Z zombie (BSD's I and U read as S and D). */
  state: string;
  /** Where it sleeps in the kernel (null: not read, or this system does not say). */
  wchan: string | null;
  /** Its controlling terminal as the backend names it (`/dev/pts/3`, `pts/3`, `ttys003`). */
  tty: string | null;
  comm: string;
  /** Its command line, arguments joined by spaces (null: not read). */
  args: string | null;
}

/**
 * One look at a pane's processes: one /proc read or one `ps` call, run by tmux. Beyond the facts,
 * /proc also shows which system call a process is blocked in and where its descriptors point;
 * `ps` shows neither, so those maps stay empty there.
 */
export interface Look {
  backend: FactsBackend;
  /** The look itself ran: when false nothing is known, not even whether a process lives. */
  ran: boolean;
  facts: Map<number, ProcessFact>;
  /** /proc only: `/proc/PID/syscall` (the call a process is blocked in and its arguments). */
  syscalls: Map<number, string>;
  /** /proc only: descriptor → target (`/dev/pts/3`, `pipe:[123]`). */
  fds: Map<number, Map<number, string>>;
  /** Children by parent; on /proc only the chain of youngest children below the foreground leader. */
  children: Map<number, number[]>;
  /** `stty -a` of the pane's terminal, when the look asked for it. */
  terminalModes: string | null;
}

export function emptyLook(backend: FactsBackend): Look {
  return {
    backend,
    ran: false,
    facts: new Map(),
    syscalls: new Map(),
    fds: new Map(),
    children: new Map(),
    terminalModes: null,
  };
}

/** Whether the process lives (a zombie does not); null when the look could not be taken. */
export function processExists(look: Look, pid: number): boolean | null {
  if (!look.ran) return null;
  const state = look.facts.get(pid)?.state;
  return state !== undefined && state !== "Z" && state !== "X";
}

/** The youngest child of `pid` in process group `pgid` (the one a waiting parent is likely behind). */
export function youngestChildIn(look: Look, pid: number, pgid: number): number | null {
  const children = (look.children.get(pid) ?? []).filter((child) => look.facts.get(child)?.pgid === pgid);
  return children.length > 0 ? children[children.length - 1] : null;
}
