import { emptyLook, type Look, type ProcessFact } from "./look.ts";

/**
 * The /proc look: a fixed POSIX sh script (tmux runs it with `sh -c` after format expansion, so
 * no `%`, and `#` is escaped by the caller) copies the pane process's stat and descriptors, and
 * its terminal's foreground leader's stat, comm, cmdline, syscall, wchan and descriptors, and the
 * same of its youngest descendants (3 levels). `read` is a builtin: each one-line file costs no
 * process. Sections are "@@ PATH" + content; `@@ ok` comes first only where /proc is Linux's.
 */
export function procScript(terminal: boolean): string {
  return terminal ? `${SCRIPT}; ${TERMINAL_SCRIPT}` : SCRIPT;
}

const SCRIPT = [
  '[ -r /proc/self/stat ] || exit 0; echo "@@ ok"; echo',
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

/** Sections by path (`/proc/PID/stat`; `/proc/PID/fd/N` → link target). */
function sections(text: string): Map<string, string> {
  const files = new Map<string, string>();
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

export function parseProcLook(text: string): Look {
  const files = sections(text);
  const look = emptyLook("proc");
  if (!files.has("ok")) return look;
  look.ran = true;
  look.terminalModes = files.get("stty") ?? null;
  for (const [path, body] of files) {
    const match = /^\/proc\/(\d+)\/(?:fd\/(\d+)|task\/\d+\/(children))$/.exec(path);
    if (!match) continue;
    const pid = Number(match[1]);
    if (match[3]) look.children.set(pid, body.trim().split(/\s+/).map(Number).filter((n) => n > 0));
    else look.fds.set(pid, (look.fds.get(pid) ?? new Map()).set(Number(match[2]), body));
  }
  for (const [path, stat] of files) {
    const pid = Number(/^\/proc\/(\d+)\/stat$/.exec(path)?.[1]);
    if (!pid) continue;
    const fact = statFact(pid, stat, files, look.fds.get(pid)?.get(0) ?? null);
    if (fact) look.facts.set(pid, fact);
    const syscall = files.get(`/proc/${pid}/syscall`)?.trim();
    if (syscall) look.syscalls.set(pid, syscall);
  }
  return look;
}

/** `pid (comm) state ppid pgrp session tty_nr tpgid …`: the name may hold spaces and parentheses. */
function statFact(pid: number, stat: string, files: Map<string, string>, fd0: string | null): ProcessFact | null {
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  if (close < 0 || fields.length < 6) return null;
  const tpgid = Number(fields[5]);
  const args = files.get(`/proc/${pid}/cmdline`);
  const wchan = files.get(`/proc/${pid}/wchan`)?.trim();
  return {
    pid,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    tpgid: tpgid > 0 ? tpgid : null,
    state: fields[0],
    wchan: wchan && wchan !== "0" ? wchan : null,
    tty: fd0?.startsWith("/dev/") ? fd0 : null,
    comm: files.get(`/proc/${pid}/comm`)?.trim() ?? stat.slice(stat.indexOf("(") + 1, close),
    args: args === undefined ? null : args.trimEnd(),
  };
}
