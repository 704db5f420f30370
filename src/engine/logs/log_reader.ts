import { stripVTControlCharacters } from "node:util";
import {
  concatBytes,
  listSegments,
  logStart,
  type OutputLine,
  rawLines,
  readRange,
  renderTerminalText,
  type Segment,
} from "../output/mod.ts";

export interface TailResult {
  lines: string[];
  /** The same lines with their raw byte ranges in the log (for an output budget's marker). */
  rows: OutputLine[];
  /** More lines existed before the first one returned (or were rotated away). */
  truncated: boolean;
  /** First byte still on disk; > 0 when older output was rotated away. */
  logStart: number;
  logEnd: number;
}

export interface ChunkResult {
  content: string;
  fromByte: number;
  nextByte: number;
  eof: boolean;
  logStart: number;
  logEnd: number;
}

const BLOCK = 64 * 1024;
/** A tail never holds more than this many bytes, even if the last lines are enormous. */
export const MAX_TAIL_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * The last `count` lines of a log, read backwards in 64 KiB blocks from its end, so a 1 GB log
 * costs a few block reads. Terminal line ends (`\r\n`) count as one line end.
 */
export async function readTail(logPath: string, count: number, stripAnsi: boolean): Promise<TailResult> {
  const segments = await listSegments(logPath);
  const start = logStart(segments);
  const end = segmentsEnd(segments);
  const blocks: Uint8Array[] = [];
  let pos = end;
  let newlines = 0;
  let cut = -1; // offset just after the newline that precedes the first wanted line
  // A final newline ends the last line rather than starting an empty one.
  const skipFinal = end > start && (await readRange(segments, end - 1, end)).bytes[0] === NEWLINE;
  while (pos > start && cut < 0 && end - pos < MAX_TAIL_BYTES) {
    const from = Math.max(start, pos - BLOCK);
    const { bytes } = await readRange(segments, from, pos);
    blocks.unshift(bytes);
    for (let i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] !== NEWLINE || (skipFinal && from + i === end - 1)) continue;
      if (++newlines === count) {
        cut = from + i + 1;
        break;
      }
    }
    pos = from;
  }
  const all = concatBytes(blocks);
  const begin = cut >= 0 ? cut : Math.max(pos, end - MAX_TAIL_BYTES);
  const render = stripAnsi ? renderTerminalText : (line: string) => line.replace(/\r+$/, "");
  // A final newline ends the last line (rawLines starts no line after it).
  const rows = rawLines(all.subarray(begin - pos), begin, render);
  return { lines: rows.map((r) => r.text), rows, truncated: begin > 0, logStart: start, logEnd: end };
}

/**
 * Bytes [from, from + max) of a log for durable streaming: `nextByte` is where the next call
 * continues, also after a restart. A chunk ends on a UTF-8 character boundary, so decoded chunks
 * concatenate to the exact text. `from` before the oldest kept byte starts at that byte.
 */
export async function readChunk(logPath: string, from: number, max: number, stripAnsi: boolean): Promise<ChunkResult> {
  const segments = await listSegments(logPath);
  const start = logStart(segments);
  const end = segmentsEnd(segments);
  const at = from < 0 ? Math.max(start, end + from) : from;
  const { start: actual, bytes } = await readRange(segments, at, Math.min(end, Math.max(at, start) + max));
  const whole = completeUtf8(bytes, actual + bytes.length < end);
  const raw = new TextDecoder().decode(whole);
  const next = actual + whole.length;
  return {
    content: stripAnsi ? stripVTControlCharacters(raw) : raw,
    fromByte: actual,
    nextByte: next,
    eof: next >= end,
    logStart: start,
    logEnd: end,
  };
}

function segmentsEnd(segments: readonly Segment[]): number {
  const last = segments[segments.length - 1];
  return last ? last.start + last.size : 0;
}

/** Drops a multi-byte character cut at the end of a chunk (it is returned whole by the next call). */
function completeUtf8(bytes: Uint8Array, more: boolean): Uint8Array {
  if (!more) return bytes;
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back && bytes.length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
