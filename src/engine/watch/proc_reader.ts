import { join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { escapeFormat } from "../../tmux/quote.ts";

/**
 * /proc files by path (`/proc/PID/stat`, `/proc/PID/fd/N` → link target); the key `ok` is present
 * when the snapshot itself ran, so a missing stat then means the process is gone.
 */
export type ProcFiles = Map<string, string>;

/**
 * Reads a pane's process facts from /proc. Deno reads /proc only with --allow-all, which the
 * sandbox does not grant, so tmux (which runs commands by design) runs a small fixed sh script
 * that copies what is needed into a file in the state directory. Only a validated pid reaches
 * the script. Cost: one tmux client plus `ls` and `tr`, a few milliseconds.
 */
export class ProcReader {
  #counter = 0;
  #ready: Promise<void> | null = null;

  constructor(private readonly tmux: TmuxServer, private readonly stateDir: string) {}

  /**
   * The pane process's stat and fds, and its terminal's foreground group leader's stat, comm,
   * cmdline, syscall, wchan, fds, and the same of its youngest descendants (3 levels); with `terminal`, also the terminal's modes (`stty -a`, one more
   * process). With `link` (a remote host's link), the pid is a process on that host.
   */
  async snapshot(panePid: number, options: { terminal?: boolean; link?: TmuxServer } = {}): Promise<ProcFiles> {
    if (!Number.isSafeInteger(panePid) || panePid <= 0) throw new RangeError(`invalid pid ${panePid}`);
    const script = options.terminal ? `${SCRIPT}; ${TERMINAL_SCRIPT}` : SCRIPT;
    // A pane on another host: the same script runs there, its output comes back through the link.
    const link = options.link ?? this.tmux;
    if (link.remote) {
      const result = await link.runShell(`P=${panePid}; ${script}`).catch(() => null);
      return result ? parseSnapshot(result.stdout) : new Map();
    }
    const dir = join(this.stateDir, "proc");
    this.#ready ??= Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await this.#ready;
    const file = join(dir, `${Deno.pid}-${++this.#counter}.txt`);
    if (/['\n%]/.test(file)) throw new RangeError(`unsafe path ${file}`);
    try {
      // Exit 0 whatever the last read did: tmux fails a run-shell whose script fails, and a gone
      // foreground group (tcsh leaves the terminal on an ended job) fails the last `ls`.
      await this.tmux.oneShot(
        "run-shell",
        escapeFormat(`{ P=${panePid}; ${script}; } > '${file}' 2>/dev/null; exit 0`),
      );
      return parseSnapshot(await Deno.readTextFile(file));
    } catch {
      return new Map();
    } finally {
      await Deno.remove(file).catch(() => {});
    }
  }
}

// POSIX sh, run by tmux with `sh -c` after format expansion (so no `%`, and `#` is escaped by the
// caller). `read` is a builtin: each one-line file costs no process. Sections are "@@ PATH" + content.
const SCRIPT = [
  'echo "@@ ok"; echo',
  'r() { v=; read -r v < "$1"; [ -n "$v" ] && { echo "@@ $1"; echo "$v"; }; }',
  'l() { echo "@@ /proc/$1/fd"; ls -l "/proc/$1/fd/"; }',
  "r /proc/$P/stat; s=$v; l $P",
  "s=${s##*) }; set -- $s; T=$6",
  '[ "$T" -gt 0 ] || exit 0',
  // A foreground group that has ended (tcsh leaves the terminal on one): the pane's process answers.
  '[ -r "/proc/$T/stat" ] || T=$P',
  "for f in stat comm syscall wchan; do r /proc/$T/$f; done",
  "echo \"@@ /proc/$T/cmdline\"; tr '\\000' ' ' < /proc/$T/cmdline; echo",
  "l $T",
  // The leader may wait for a child that reads the terminal (git running its editor): up to 3 levels down.
  'c=$T; n=0; while [ $n -lt 3 ]; do r /proc/$c/task/$c/children; [ -n "$v" ] || break; set -- $v; ' +
  'eval "c=\\${$#}"; for f in stat comm syscall wchan; do r /proc/$c/$f; done; ' +
  "echo \"@@ /proc/$c/cmdline\"; tr '\\000' ' ' < /proc/$c/cmdline; echo; l $c; n=$((n+1)); done",
].join("; ");

/** The terminal's modes (`-icanon`: a program reads single keys), read from the pane's tty on fd 0. */
const TERMINAL_SCRIPT = 'echo "@@ stty"; stty -a < /proc/$P/fd/0';

export function parseSnapshot(text: string): ProcFiles {
  const files: ProcFiles = new Map();
  for (const section of text.split(/^@@ /m).slice(1)) {
    const newline = section.indexOf("\n");
    const path = section.slice(0, newline);
    const body = section.slice(newline + 1).replace(/\n$/, "");
    if (path.endsWith("/fd")) {
      for (const line of body.split("\n")) {
        const link = / (\d+) -> (.*)$/.exec(line);
        if (link) files.set(`${path}/${link[1]}`, link[2]);
      }
    } else {
      files.set(path, body);
    }
  }
  return files;
}
