import { join } from "node:path";
import { escapeFormat } from "../../tmux/quote.ts";

/** Where owned panes' raw output goes: one log (a series of segment files) per pane instance. */
export function logDir(stateDir: string): string {
  return join(stateDir, "logs");
}

/** A remote host's pane has the host in its name (`<pid>-<host>-<N>-<stamp>.log`): pane ids repeat across hosts. */
export function logPathFor(stateDir: string, ownerPid: number, paneId: string, host = "local"): string {
  const stamp = Date.now().toString(36);
  const where = host === "local" ? "" : `${host}-`;
  return join(logDir(stateDir), `${ownerPid}-${where}${paneId.slice(1)}-${stamp}.log`);
}

export interface RotationLimits {
  /** Size of one segment file; the writer starts the next one when a segment reaches it. */
  maxBytes: number;
  /** Full segments kept besides the one being written; older ones are deleted by the writer. */
  keep: number;
}

/**
 * The writer tmux runs for a pane (`pipe-pane`), in POSIX sh. `dd` copies one read(2) at a time
 * and writes it at once (no stdio buffering, so the log is as fresh as with `cat`), and never
 * reads more than a segment still lacks: each segment gets exactly MAX bytes. Then the next
 * segment starts at the next offset, the symlink `<log>` moves to it and the segment KEEP+1 back
 * is deleted. A dd run that copied nothing saw end of file: the pane is gone. tmux runs this, so
 * logging and rotation go on while tmuxwright is down. No single quote in here: the whole
 * script is one single-quoted sh word.
 */
const WRITER = [
  "p=$1 m=$2 k=$3 o=0 b=65536",
  // The first $4 bytes are not the program's (a start-up gate's cursor step): read one at a time and dropped.
  '[ "${4:-0}" -gt 0 ] && dd bs=1 count=$4 of=/dev/null 2>/dev/null',
  "pad() { s=$1; while [ ${#s} -lt 16 ]; do s=0$s; done; }",
  'seg() { pad $1; f=$p.$s; : >> "$f"; ln -sfn "${f##*/}" "$p"; }',
  "while :; do",
  "  seg $o; n=0",
  "  while [ $n -lt $m ]; do",
  "    r=$((m - n))",
  '    if [ $r -ge $b ]; then dd bs=$b count=$((r / b)); else dd bs=$r count=1; fi >> "$f" 2>/dev/null',
  '    t=$(($(wc -c < "$f")))',
  "    [ $t -eq $n ] && exit 0",
  "    n=$t",
  "  done",
  "  o=$((o + m)); d=$((o - (k + 1) * m))",
  '  if [ $d -ge 0 ]; then pad $d; rm -f "$p.$s"; fi',
  "done",
].join("\n");

/**
 * The `pipe-pane` command that writes a pane's output to its log. tmux runs it with `sh -c`
 * after format expansion, so the path (already restricted to a safe character set by the
 * config) is single-quoted for sh and `#` is doubled for tmux. The pane's first `skip` bytes
 * are left out (the start-up gate's cursor step, src/engine/panes/gate.ts).
 */
export function pipeCommand(path: string, limits: RotationLimits, skip = 0): string {
  if (/['\n\r%]/.test(path)) throw new RangeError(`unsafe log path: ${path}`);
  const max = Math.floor(limits.maxBytes);
  const keep = Math.floor(limits.keep);
  const drop = Math.max(0, Math.floor(skip));
  return escapeFormat(`exec /bin/sh -c '${WRITER}' tmuxwright-log '${path}' ${max} ${keep} ${drop}`);
}

/** The plain writer (no rotation), measured against the rotating one in scripts/bench_logs.ts. */
export function plainPipeCommand(path: string): string {
  if (/['\n\r%]/.test(path)) throw new RangeError(`unsafe log path: ${path}`);
  return escapeFormat(`exec cat >> '${path}'`);
}

export async function ensureLogDir(stateDir: string): Promise<string> {
  const dir = logDir(stateDir);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
