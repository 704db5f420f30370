import { emptyLook, type Look, type ProcessFact } from "./look.ts";

/**
 * The `ps` look: one `ps` call for the processes on the pane's terminal, with only keywords
 * procps and BSD ps (macOS, FreeBSD) both know. Each keyword gets its own `-o` (BSD reads a
 * header after `=` to the end of the argument) and `-ww` (no width limit for `args`). `ucomm`
 * (the accounting name, at most 16 characters everywhere) comes first under a wider header, so
 * its column has the header's width on both and may hold spaces (`tmux: client`); `wchan` gets a
 * wide header too, as both cut it to its column (6 characters by default). Every other column
 * but `args`, the last, is one word.
 */
const NAME_HEADER = "COMMAND-NAME-COLUMN-WIDTH";
const WCHAN_HEADER = "WAIT-CHANNEL-COLUMN-WIDE-FOR-KERNEL-NAMES";
const KEYWORDS = [`ucomm=${NAME_HEADER}`, "pid=", "ppid=", "pgid=", "tpgid=", "stat=", "tty=", `wchan=${WCHAN_HEADER}`];

/** The script for a pane whose process is `$P` on the terminal `$Y` (a validated /dev path). */
export function psScript(terminal: boolean): string {
  const ps = `ps -ww ${[...KEYWORDS, "args="].map((k) => `-o ${k}`).join(" ")} -t "$Y"`;
  return `echo "@@ ps"; ${ps}${terminal ? '; echo "@@ stty"; stty -a < "$Y"' : ""}`;
}

const ROW = /^\s*(\d+)\s+(\d+)\s+(-?\d+)\s+(-?\d+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+(.*))?$/;

/** The rows of the pane's process `panePid` and its descendants (a terminal's name can be shared: below). */
export function parsePsLook(text: string, panePid: number): Look {
  const look = emptyLook("ps");
  const table = section(text, "ps");
  const stty = section(text, "stty");
  look.terminalModes = stty;
  if (table === null || !table.startsWith(NAME_HEADER)) return look; // ps did not run
  look.ran = true;
  const all = new Map<number, ProcessFact>();
  for (const line of table.split("\n").slice(1)) {
    const fact = parseRow(line);
    if (fact) all.set(fact.pid, fact);
  }
  // Terminals of another devpts instance (a container's) carry the same names and numbers, and
  // `ps -t` lists their processes too: only the pane's own process tree is kept.
  const children = new Map<number, number[]>();
  for (const fact of all.values()) children.set(fact.ppid, [...children.get(fact.ppid) ?? [], fact.pid]);
  const queue = all.has(panePid) ? [panePid] : [];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    look.facts.set(pid, all.get(pid)!);
    const below = (children.get(pid) ?? []).sort((a, b) => a - b);
    if (below.length > 0) look.children.set(pid, below);
    queue.push(...below);
  }
  return look;
}

function parseRow(line: string): ProcessFact | null {
  const match = ROW.exec(line.slice(NAME_HEADER.length));
  if (!match) return null;
  const [, pid, ppid, pgid, tpgid, stat, tty, wchan, args] = match;
  return {
    pid: Number(pid),
    ppid: Number(ppid),
    pgid: Number(pgid),
    tpgid: Number(tpgid) > 0 ? Number(tpgid) : null,
    // BSD: I is a process asleep for more than about 20 seconds, U an uninterruptible wait.
    state: ({ I: "S", U: "D" } as Record<string, string>)[stat[0]] ?? stat[0],
    // "-": no wait channel (Linux: running; macOS: always, its kernel reports none).
    wchan: wchan === "-" || wchan === "?" ? null : wchan,
    tty: tty === "?" || tty === "??" ? null : tty,
    comm: line.slice(0, NAME_HEADER.length).trimEnd(),
    args: args ?? "",
  };
}

function section(text: string, name: string): string | null {
  const start = text.indexOf(`@@ ${name}\n`);
  if (start < 0) return null;
  const body = text.slice(start + name.length + 4);
  const end = body.search(/^@@ /m);
  return (end < 0 ? body : body.slice(0, end)).replace(/\n$/, "");
}
