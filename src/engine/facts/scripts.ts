import type { FactsBackend } from "./look.ts";

/**
 * The small sh scripts that other parts of the engine have tmux run, one text per backend: tmux
 * runs commands by design, this server may only run tmux. Only digits, fixed names and quoted
 * words reach them; none holds `#` or `%` (tmux expands run-shell's command as a format).
 */

/** Exit status 0 where Linux's /proc is readable: the default backend there. */
export const PROC_TEST = "[ -r /proc/self/stat ]";

/** Sends SIGTERM or SIGKILL to the foreground process group of the terminal of `pid`. */
export function signalGroupScript(backend: FactsBackend, pid: number, signal: "TERM" | "KILL"): string {
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new RangeError(`invalid pid ${pid}`);
  // /proc: the fields after "comm)": 3 = pgrp, 6 = tpgid.
  const group = backend === "proc"
    ? `set -- $(sed 's/.*) //' /proc/${pid}/stat); T=$6`
    : `T=$(ps -o tpgid= -p ${pid} | tr -d ' ')`;
  return `${group}; [ "$T" -gt 0 ] && kill -s ${signal} -- "-$T"`;
}

/**
 * Kills (-9) this user's processes whose argument vector is exactly one of `argvs` (its first
 * word may be the path the program was found at). `words` narrow the /proc search first (grep).
 * With no backend given, the script picks /proc where it is readable.
 */
export function killByArgvScript(backend: FactsBackend | null, argvs: string[][], words: string[]): string {
  const lines = argvs.map((argv) => shellQuote(argv.join(" ")));
  const proc = [
    `for f in $(grep -lsaF ${words.map((w) => `-e ${shellQuote(w)}`).join(" ")} /proc/[0-9]*/cmdline); do`,
    `  c=$(tr '\\000' ' ' < "$f" 2>/dev/null) || continue`,
    `  case "$c" in ${lines.flatMap((l) => [`${l}' '`, `*/${l}' '`]).join("|")}) ` +
    `kill -9 "$(echo "$f" | cut -d/ -f3)" 2>/dev/null;; esac`,
    "done",
  ].join("\n");
  const ps = [
    "ps -A -ww -o pid= -o args= | while read -r p c; do",
    `  case "$c" in ${lines.flatMap((l) => [l, `*/${l}`]).join("|")}) kill -9 "$p" 2>/dev/null;; esac`,
    "done",
  ].join("\n");
  const body = backend === "proc" ? proc : backend === "ps" ? ps : `if ${PROC_TEST}; then\n${proc}\nelse\n${ps}\nfi`;
  return `${body}; true`;
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
