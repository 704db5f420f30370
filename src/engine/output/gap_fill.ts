import { renderTerminalText } from "./render.ts";

/**
 * Filling a remote pane's log after its link was down: what the pane wrote meanwhile never came
 * as `%output`, but tmux's grid on the host still holds it. A mark ties a log offset to a grid
 * position (absolute line = history_size + cursor_y, and column); the bytes logged after the mark
 * move that position on; the grid's lines from there to the cursor are the gap.
 */

/** A grid position: absolute line (0 = the oldest history line) and column. */
export interface GridPosition {
  line: number;
  x: number;
}

/** Where the log's offset `offset` put the cursor, and the pane's width then. */
export interface LogMark extends GridPosition {
  offset: number;
  width: number;
}

/** The format of a mark's `display-message`, and of the first look after a reconnect. */
export const MARK_FORMAT = "#{history_size} #{cursor_y} #{cursor_x} #{pane_width} #{history_limit}";

export interface PaneGrid {
  historySize: number;
  cursorY: number;
  cursorX: number;
  width: number;
  historyLimit: number;
}

export function parseGrid(line: string | undefined): PaneGrid | null {
  const fields = (line ?? "").trim().split(" ").map(Number);
  if (fields.length !== 5 || fields.some((n) => !Number.isSafeInteger(n) || n < 0)) return null;
  const [historySize, cursorY, cursorX, width, historyLimit] = fields;
  return { historySize, cursorY, cursorX, width, historyLimit };
}

/**
 * Moves a position over bytes a pane wrote, as a terminal would for line-oriented output: LF
 * moves down (tmux's tty turns `\n` into CR LF), CR to column 0, a printable character one
 * column (UTF-8 continuation bytes none), a full line wraps; escape sequences move nothing. A
 * full-screen program that moves the cursor around is not followed exactly: its gap is what its
 * screen shows.
 */
export function advance(from: GridPosition, bytes: Uint8Array, width: number): GridPosition {
  let { line, x } = from;
  let escape: "none" | "esc" | "csi" | "osc" = "none";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (escape === "esc") {
      escape = b === 0x5b ? "csi" : b === 0x5d ? "osc" : "none";
      continue;
    }
    if (escape === "csi") {
      if (b >= 0x40 && b <= 0x7e) escape = "none";
      continue;
    }
    if (escape === "osc") {
      if (b === 0x07) escape = "none";
      else if (b === 0x1b) escape = "esc"; // ST is ESC \
      continue;
    }
    if (b === 0x1b) escape = "esc";
    else if (b === 0x0a) line++;
    else if (b === 0x0d) x = 0;
    else if (b === 0x08) x = Math.max(0, x - 1);
    else if (b >= 0x20 && b !== 0x7f && (b & 0xc0) !== 0x80) {
      if (x >= width) {
        line++;
        x = 0;
      }
      x++;
    }
  }
  return { line, x };
}

/**
 * The text of grid lines from `start` to the cursor line, as the log would have had it (lines
 * end with CR LF), given the pane's whole grid (`capture-pane -p -S - -E -`: line 0 is the oldest
 * history line). Null when `start` is no longer in the grid (history trimmed past it).
 */
export function gapText(grid: readonly string[], start: GridPosition, cursor: GridPosition): string | null {
  if (start.line < 0 || start.line > grid.length) return null;
  if (start.line > cursor.line || (start.line === cursor.line && start.x >= cursor.x)) return "";
  const rows: string[] = [];
  for (let line = start.line; line <= cursor.line && line < grid.length; line++) {
    const text = grid[line] ?? "";
    rows.push(line === start.line ? text.slice(start.x) : text);
  }
  return rows.join("\r\n");
}

/** Complete lines the log ended with, kept to find its end in the host's grid. */
const CONTEXT_LINES = 3;

/**
 * The last complete lines of the log before its end (oldest first, as the screen shows them):
 * the rows just above where the log's end put the cursor.
 */
export function contextLines(tail: string): string[] {
  const lines = renderTerminalText(tail).split("\n");
  // The cursor's own line is not complete (unless the log ended with a line end: then it is empty).
  if (!tail.endsWith("\n") || lines.at(-1) === "") lines.pop();
  return lines.slice(1).slice(-CONTEXT_LINES); // the first may be cut by the tail's start
}

/**
 * Where the log's end really is in the grid now. The computed `start` holds while the host kept
 * every line since the mark; when tmux trimmed a full history (it drops a tenth at a time),
 * every line moved up. The rows just above `start` must show the log's last complete lines: the
 * nearest row (at or above the computed one) where they do is the start; none, or no line to go
 * by while the history may have been trimmed: null (the gap cannot be placed).
 */
export function locateStart(
  grid: readonly string[],
  start: GridPosition,
  context: readonly string[],
  mayBeTrimmed: boolean,
): GridPosition | null {
  const known = context.some((line) => line.trim() !== "");
  if (!known) return mayBeTrimmed ? null : start;
  const fits = (row: number) =>
    context.every((line, i) => (grid[row - context.length + i] ?? null)?.trimEnd() === line.trimEnd());
  for (let row = Math.min(start.line + 1, grid.length); row >= context.length; row--) {
    if (fits(row)) return { line: row, x: start.x }; // trimming moves lines up, never along
  }
  return null;
}

/** The one line a log gets where the host's history could not cover an outage. */
export function lostLine(host: string, from: Date, to: Date): string {
  const time = (d: Date) => d.toISOString().slice(11, 19);
  return `\r\n[tmuxwright: output lost while host ${host} was unreachable, ${time(from)}–${time(to)} UTC]\r\n`;
}

/** A range of a log that did not come from the pane's output stream (`<log>.gaps`, one JSON line each). */
export interface LogGap {
  from: number;
  to: number;
  /** history: rebuilt from the host's grid after a reconnect (rendered text); lost: output that is gone. */
  kind: "history" | "lost";
  /** When the link went down and came back (ISO 8601). */
  down: string;
  up: string;
}

export function gapsPath(logPath: string): string {
  return `${logPath}.gaps`;
}

export async function recordGap(logPath: string, gap: LogGap): Promise<void> {
  await Deno.writeTextFile(gapsPath(logPath), JSON.stringify(gap) + "\n", { append: true, mode: 0o600 });
}

/** The gaps of a log that overlap bytes [from, to) (a gap of no bytes counts where it sits). */
export async function readGaps(logPath: string, from: number, to: number): Promise<LogGap[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(gapsPath(logPath));
  } catch {
    return [];
  }
  const gaps: LogGap[] = [];
  for (const line of text.split("\n")) {
    try {
      const gap = JSON.parse(line) as LogGap;
      if (gap.to >= from && gap.from <= to) gaps.push(gap);
    } catch { /* a torn last line */ }
  }
  return gaps;
}
