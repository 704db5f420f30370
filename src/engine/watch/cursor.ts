import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import { logSize, readLogRange, renderTerminalText } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { visibleLines } from "./wait_output.ts";

/**
 * Incremental reads. A cursor is opaque to agents: pane id + pane pid (a respawned pane has a new
 * pid, so its old cursors are rejected) + a position. Owned panes: a byte offset into the pane's
 * log (durable, nothing is ever missed). Other panes: an absolute row in tmux's grid
 * (history_size + cursor row) plus a hash of the row above it, checked on the next read: when
 * tmux trimmed or cleared the history in between, the rows moved and `linesMissed` is reported.
 * A position always sits at a line start: the incomplete last line is returned as `pending` and
 * again, complete, by the next read.
 */
type Position = { k: "log"; o: number } | { k: "grid"; a: number; h: string; x?: number };
type Cursor = { v: 1; p: string; pid: number } & Position;

export interface SinceResult {
  text: string;
  pending: string;
  cursor: string;
  linesMissed: boolean;
  truncated: boolean;
  first: boolean;
}

const MAX_LOG_BYTES = 512 * 1024;
const MAX_ROWS = 5_000;

export function decodeCursor(token: string): Cursor {
  const bad = () =>
    new ToolError(
      "INVALID_ARGUMENT",
      "Invalid cursor: not one returned by capture_since or send_keys",
      "Call capture_since with pane_id.",
    );
  if (!token.startsWith("tw1.")) throw bad();
  let value: Cursor;
  try {
    value = JSON.parse(atob(token.slice(4).replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw bad();
  }
  const okPos = (value?.k === "log" && Number.isSafeInteger(value.o) && value.o >= 0) ||
    (value?.k === "grid" && Number.isSafeInteger(value.a) && typeof value.h === "string" &&
      (value.x === undefined || Number.isSafeInteger(value.x)));
  if (value?.v !== 1 || !/^%\d+$/.test(value.p) || !Number.isSafeInteger(value.pid) || !okPos) throw bad();
  return value;
}

/**
 * A cursor at this very moment (before keys are sent): the log's end for an owned pane (it may
 * sit inside a line: the rest of that line, the typed command's echo, comes next), the cursor's
 * row for another pane (with its column, so a wait starting there knows the row was begun).
 */
export async function cursorNow(tmux: TmuxServer, pane: PaneInfo, followsLog: boolean): Promise<string> {
  const base = { v: 1 as const, p: pane.paneId, pid: pane.pid ?? 0 };
  if (followsLog) return encodeCursor({ ...base, k: "log", o: await logSize(pane.logPath!) });
  const [row] = await tmux.run("display-message", "-p", "-t", pane.paneId, "#{history_size} #{cursor_y} #{cursor_x}");
  const [hs, cy, cx] = row.split(" ").map(Number);
  return encodeCursor({ ...base, k: "grid", a: hs + cy, h: await rowHash(tmux, pane.paneId, cy - 1), x: cx });
}

/** Where a wait that starts at `cursor` begins reading (see scanPane's `fromOffset` / `fromRow`). */
export function cursorStart(cursor: Cursor): { fromOffset: number } | { fromRow: { abs: number; x: number } } {
  return cursor.k === "log" ? { fromOffset: cursor.o } : { fromRow: { abs: cursor.a, x: cursor.x ?? 0 } };
}

function encodeCursor(cursor: Cursor): string {
  return "tw1." + btoa(JSON.stringify(cursor)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Reads what a pane wrote since `cursor` (or, without one, its visible screen) and a new cursor. */
export async function captureSince(
  tmux: TmuxServer,
  pane: PaneInfo,
  followsLog: boolean,
  cursor: Cursor | null,
): Promise<SinceResult> {
  if (cursor) checkSamePane(pane, cursor);
  if (pane.pid === null && !pane.dead) {
    throw new ToolError("PANE_DEAD", `Cannot read pane ${pane.paneId}: it has no process`);
  }
  // An exited pane whose pid tmux no longer reports keeps the cursor's: it cannot have been respawned.
  const base = { v: 1 as const, p: pane.paneId, pid: pane.pid ?? cursor?.pid ?? 0 };
  if (followsLog && (!cursor || cursor.k === "log")) {
    const size = await logSize(pane.logPath!);
    if (!cursor) {
      const start = await lineStart(pane.logPath!, size);
      const screen = await screenText(tmux, pane.paneId);
      return { ...screen, cursor: encodeCursor({ ...base, k: "log", o: start }), linesMissed: false, truncated: false };
    }
    const missed = size < cursor.o;
    const from = missed ? 0 : Math.max(cursor.o, size - MAX_LOG_BYTES);
    const bytes = await readLogRange(pane.logPath!, from, size);
    const lastNl = bytes.lastIndexOf(0x0a);
    const decoder = new TextDecoder();
    const complete = lastNl === -1 ? "" : decoder.decode(bytes.subarray(0, lastNl));
    const pending = renderTerminalText(decoder.decode(bytes.subarray(lastNl + 1)));
    return {
      text: lastNl === -1 ? "" : renderTerminalText(complete),
      pending,
      cursor: encodeCursor({ ...base, k: "log", o: from + lastNl + 1 }),
      linesMissed: missed,
      truncated: from > cursor.o,
      first: false,
    };
  }
  // Rows move while output scrolls; a read is kept only if the grid did not move during it.
  for (let attempt = 0;; attempt++) {
    const before = await gridMark(tmux, pane.paneId);
    const result = await gridSince(tmux, pane, base, cursor?.k === "grid" ? cursor : null);
    if (attempt >= 20 || before === await gridMark(tmux, pane.paneId)) return result;
  }
}

async function gridMark(tmux: TmuxServer, paneId: string): Promise<string> {
  return (await tmux.run("display-message", "-p", "-t", paneId, "#{history_size} #{cursor_y} #{cursor_x}"))[0];
}

function checkSamePane(pane: PaneInfo, cursor: Cursor): void {
  if (pane.pid !== cursor.pid && !(pane.dead && pane.pid === null)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cursor rejected: pane ${pane.paneId} was respawned (process ${cursor.pid} is now ${pane.pid})`,
      "Call capture_since with pane_id to start over.",
    );
  }
  // A pane that has exited keeps what it wrote: a cursor taken before reads it to the end.
}

async function gridSince(
  tmux: TmuxServer,
  pane: PaneInfo,
  base: { v: 1; p: string; pid: number },
  cursor: (Cursor & { k: "grid" }) | null,
): Promise<SinceResult> {
  const [row] = await tmux.run("display-message", "-p", "-t", pane.paneId, "#{history_size}\x1f#{cursor_y}");
  const [hs, cy] = row.split("\x1f").map(Number);
  const abs = hs + cy;
  const next = async () => encodeCursor({ ...base, k: "grid", a: abs, h: await rowHash(tmux, pane.paneId, cy - 1) });
  if (!cursor) {
    return { ...await screenText(tmux, pane.paneId), cursor: await next(), linesMissed: false, truncated: false };
  }
  const anchorRow = cursor.a - 1 - hs; // where the row above the old position should be now
  const intact = cursor.a <= abs &&
    (cursor.a === 0 || (anchorRow >= -hs && await rowHash(tmux, pane.paneId, anchorRow) === cursor.h));
  if (!intact) {
    const screen = await screenText(tmux, pane.paneId);
    return { ...screen, first: false, cursor: await next(), linesMissed: true, truncated: false };
  }
  const start = Math.max(cursor.a - hs, cy - MAX_ROWS);
  const lines = start <= cy - 1
    ? await capture(tmux, pane.paneId, ["-J", "-S", String(start), "-E", String(cy - 1)])
    : [];
  const pending = (await capture(tmux, pane.paneId, ["-S", String(cy), "-E", String(cy)]))[0] ?? "";
  return {
    text: lines.join("\n"),
    pending,
    cursor: await next(),
    linesMissed: false,
    truncated: start > cursor.a - hs,
    first: false,
  };
}

async function capture(tmux: TmuxServer, paneId: string, range: string[]): Promise<string[]> {
  return (await tmux.run("capture-pane", "-p", "-t", paneId, ...range)).map((l) => l.trimEnd());
}

async function rowHash(tmux: TmuxServer, paneId: string, row: number): Promise<string> {
  const [text = ""] = await capture(tmux, paneId, ["-S", String(row), "-E", String(row)]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

async function screenText(tmux: TmuxServer, paneId: string) {
  const lines = await visibleLines(tmux, paneId);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { text: lines.join("\n"), pending: "", first: true };
}

/** Offset of the start of the log's last line (so the incomplete line is read again next time). */
async function lineStart(path: string, size: number): Promise<number> {
  const from = Math.max(0, size - 65_536);
  const tail = await readLogRange(path, from, size);
  const nl = tail.lastIndexOf(0x0a);
  return nl === -1 ? from : from + nl + 1;
}
