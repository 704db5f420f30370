/**
 * The output budget every tool that returns output shares: at most `bytes` bytes and `lines`
 * lines of text, the head and the tail kept, one marker line in place of the middle saying how
 * many lines and bytes were left out and which call returns them. The default (8 KiB, 200
 * lines) is about 2,000 tokens: a command's first lines (what it started doing, the first error)
 * and its last ones (the summary, the final error) without filling an agent's context.
 */
export interface Budget {
  bytes: number;
  lines: number;
}

export const DEFAULT_OUTPUT_BYTES = 8192;
/** The largest budget: a result stays under the 1,000,000-character response bound. */
export const MAX_OUTPUT_BYTES = 800_000;

/**
 * A budget of `bytes` (default 8 KiB). Up to the default it also bounds lines, 200 per 8 KiB (short
 * lines such as numbers cost more tokens per byte); a raised budget is bounded by bytes alone.
 */
export function outputBudget(bytes = DEFAULT_OUTPUT_BYTES): Budget {
  const b = Math.max(0, Math.min(MAX_OUTPUT_BYTES, Math.floor(bytes)));
  if (b > DEFAULT_OUTPUT_BYTES) return { bytes: b, lines: b };
  return { bytes: b, lines: Math.max(b === 0 ? 0 : 2, Math.floor((b * 200) / DEFAULT_OUTPUT_BYTES)) };
}

/**
 * One line of output; `from`/`to` are its raw bytes in the stream or log (with its line end),
 * when known, and `exact` says its raw bytes are its text (plain text, no escape sequences).
 */
export interface OutputLine {
  text: string;
  from?: number;
  to?: number;
  exact?: boolean;
}

/** What was left out: the lines not shown whole, their bytes, and where they are (raw range, when known). */
export interface Omitted {
  lines: number;
  bytes: number;
  /** Index of the first line not shown whole. */
  firstLine: number;
  fromByte?: number;
  toByte?: number;
}

export interface Fitted {
  text: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  omitted: Omitted | null;
}

const size = (text: string) => utf8Length(text) + 1; // with its newline

/**
 * Bytes of `text` in UTF-8, as TextEncoder writes it (a lone surrogate as U+FFFD), counted without
 * encoding it: every call fits its output line by line, and an encode per line was a copy and a
 * runtime call each.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: two units, four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
/** Kept free for the marker line when pieces of a line fill the budget. */
const MARKER_ROOM = 200;
/** A cut line keeps at least this much, or it is left out whole. */
const MIN_CUT = 16;

/**
 * Fits lines into the budget: whole lines from the start while they fit half of it, whole lines
 * from the end while they fit the rest, `marker(omitted)` as one line between. When no whole
 * line fits at an end (one enormous line), that end shows a piece of the line. `totals` describes
 * the whole output when `lines` holds only its two ends, `lines[0..gapAfter]` and the rest (the
 * middle was never kept): the output is then cut there at least.
 */
export function fitLines(
  lines: readonly OutputLine[],
  budget: Budget,
  marker: (omitted: Omitted) => string,
  totals?: { lines: number; bytes: number; gapAfter: number },
): Fitted {
  const totalLines = totals?.lines ?? lines.length;
  const totalBytes = totals?.bytes ?? Math.max(0, lines.reduce((n, l) => n + size(l.text), 0) - 1);
  const headEnd = totals ? totals.gapAfter + 1 : lines.length; // the head ends here at the latest
  const tailStart = totals ? totals.gapAfter + 1 : 0; // the tail starts here at the earliest
  if (totals === undefined && totalBytes <= budget.bytes && totalLines <= budget.lines) {
    return { text: lines.map((l) => l.text).join("\n"), truncated: false, totalLines, totalBytes, omitted: null };
  }
  let headUsed = 0;
  let first = 0; // lines[0..first) are the head
  while (
    first < headEnd && first < Math.floor(budget.lines / 2) &&
    headUsed + size(lines[first].text) <= budget.bytes / 2
  ) headUsed += size(lines[first++].text);
  let tailUsed = 0;
  let last = lines.length; // lines[last..) are the tail
  while (
    last > Math.max(first, tailStart) && first + lines.length - last < budget.lines &&
    headUsed + tailUsed + size(lines[last - 1].text) <= budget.bytes - MARKER_ROOM
  ) tailUsed += size(lines[--last].text);
  if (totals === undefined && first === last) {
    return { text: lines.map((l) => l.text).join("\n"), truncated: false, totalLines, totalBytes, omitted: null };
  }
  const room = budget.bytes - headUsed - tailUsed - MARKER_ROOM;
  const headPiece = first === 0 && last > 0 ? piece(lines[0], Math.floor(room / 2) - 2, "start") : null;
  const tailPiece = last === lines.length && last > first
    ? piece(lines[last - 1], room - (headPiece ? utf8Length(headPiece.text) : 0) - 4, "end")
    : null;
  const a = lines[first];
  const b = lines[last - 1];
  const fromByte = headPiece?.rest ?? a?.from;
  const toByte = tailPiece?.rest ?? b?.to;
  const known = fromByte !== undefined && toByte !== undefined;
  const shownBytes = headUsed + tailUsed + utf8Length((headPiece?.text ?? "") + (tailPiece?.text ?? ""));
  const omitted: Omitted = {
    lines: totalLines - first - (lines.length - last),
    bytes: known ? toByte - fromByte : Math.max(0, totalBytes - shownBytes),
    firstLine: first,
    ...(known ? { fromByte, toByte } : {}),
  };
  const middle = [headPiece?.text, marker(omitted), tailPiece?.text].filter((t) => t).join(" ");
  const text = [...lines.slice(0, first).map((l) => l.text), middle, ...lines.slice(last).map((l) => l.text)]
    .join("\n");
  return { text, truncated: true, totalLines, totalBytes, omitted };
}

/** The start or end of a line that fits `room` bytes, and where its left-out rest begins or ends. */
function piece(line: OutputLine, room: number, end: "start" | "end"): { text: string; rest?: number } | null {
  if (room < MIN_CUT) return null;
  const chars = end === "start" ? [...line.text] : [...line.text].reverse();
  const kept: string[] = [];
  let bytes = 0;
  for (const ch of chars) {
    const n = utf8Length(ch);
    if (bytes + n > room) break;
    kept.push(ch);
    bytes += n;
  }
  if (kept.length === 0) return null;
  const text = end === "start" ? kept.join("") : kept.reverse().join("");
  if (!line.exact || line.from === undefined) return { text };
  const length = utf8Length(line.text);
  return { text, rest: end === "start" ? line.from + bytes : line.from + length - bytes };
}

/**
 * Splits raw output bytes at `offset` into rendered lines with their raw ranges, as
 * renderTerminalText reads them: a final line end starts no line, and an unfinished last line
 * that shows nothing is no line.
 */
export function rawLines(bytes: Uint8Array, offset: number, render: (raw: string) => string): OutputLine[] {
  const decoder = new TextDecoder();
  const lines: OutputLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const stop = nl < 0 ? bytes.length : nl + 1;
    const raw = decoder.decode(bytes.subarray(start, nl < 0 ? stop : nl));
    const text = render(raw);
    if (nl < 0 && text === "") break; // an unfinished last line that shows nothing (a mark, a colour reset)
    lines.push({ text, from: offset + start, to: offset + stop, exact: text === raw.replace(/\r$/, "") });
    start = stop;
  }
  return lines;
}

/** read_logs returns at most this many bytes per call. */
export const READ_LOGS_MAX_BYTES = 1024 * 1024;

/**
 * The marker line in place of omitted output that a log (or a spool) holds: how many lines and
 * bytes, and the exact read_logs call that returns them (in chunks, when they exceed one call).
 */
export function readLogsMarker(paneId: string, omitted: Omitted): string {
  const what = `${omitted.lines} line${omitted.lines === 1 ? "" : "s"}, ${omitted.bytes} bytes omitted`;
  if (omitted.fromByte === undefined) return `[… ${what} …]`;
  const max = Math.min(omitted.bytes, READ_LOGS_MAX_BYTES);
  const call = JSON.stringify({ pane_id: paneId, from_byte: omitted.fromByte, max_bytes: max });
  const more = omitted.bytes > max ? ", then on from its next_byte" : "";
  return `[… ${what}; read_logs ${call} returns them${more} …]`;
}
