import { basename, dirname, join } from "node:path";

/**
 * A pane's log is a series of segment files `<stem>.log.<start>` (start = the byte offset of the
 * segment's first byte in the pane's whole output, 16 digits) plus a symlink `<stem>.log` to the
 * newest one. Offsets are therefore monotonic across rotations: offset X always means the same
 * byte, whichever file holds it, and the oldest segments may be gone (rotated away).
 */
export interface Segment {
  start: number;
  path: string;
  /** Bytes in the segment now (the newest one may still grow). */
  size: number;
}

const SEGMENT_SUFFIX = /^\.(\d{16})$/;

/** The segment file that holds bytes from `start` on. */
export function segmentPath(logPath: string, start: number): string {
  return `${logPath}.${String(start).padStart(16, "0")}`;
}

/** Parses a file name in the log directory: the log it belongs to and its start offset, or null. */
export function parseSegmentName(path: string): { logPath: string; start: number } | null {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  const match = SEGMENT_SUFFIX.exec(name.slice(dot));
  if (!match || !name.slice(0, dot).endsWith(".log")) return null;
  return { logPath: join(dirname(path), name.slice(0, dot)), start: Number(match[1]) };
}

/**
 * The segments of a log, oldest first, with sizes. A log written before rotation existed (one
 * plain file at `logPath`) is one segment starting at 0. Missing log → no segments.
 *
 * The log directory holds every pane's logs (thousands), so it is listed only when nothing cheaper
 * tells: while the first segment is still there (a log that never rotated away its start, which is
 * nearly every log), each segment is found from the one before it: a full segment ends where the
 * next begins, and a segment with no file after it is the newest.
 */
export async function listSegments(logPath: string): Promise<Segment[]> {
  const first = segmentPath(logPath, 0);
  if (await exists(first)) {
    const segments: Segment[] = [];
    for (let start = 0, path = first;;) {
      const size = await fileSize(path);
      segments.push({ start, path, size });
      const next = segmentPath(logPath, start + size);
      if (size === 0 || !await exists(next)) return segments;
      start += size;
      path = next;
    }
  }
  const starts = ((await segmentsByLog(dirname(logPath))).get(logPath) ?? [])
    .map((path) => parseSegmentName(path)!.start).sort((a, b) => a - b);
  if (starts.length === 0) {
    try {
      const info = await Deno.lstat(logPath);
      if (info.isFile) return [{ start: 0, path: logPath, size: info.size }];
    } catch { /* no log yet */ }
    return [];
  }
  return await sized(logPath, starts);
}

/**
 * Every log's segment files in `dir` from one listing (retention judges thousands of logs: one
 * listing per log would be quadratic).
 */
export async function segmentsByLog(dir: string): Promise<Map<string, string[]>> {
  const byLog = new Map<string, string[]>();
  try {
    for await (const entry of Deno.readDir(dir)) {
      const parsed = parseSegmentName(join(dir, entry.name));
      if (!parsed) continue;
      const paths = byLog.get(parsed.logPath) ?? [];
      paths.push(join(dir, entry.name));
      byLog.set(parsed.logPath, paths);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return byLog;
}

/** Full segments never change, so their size is the distance to the next one; only the last is looked at. */
async function sized(logPath: string, starts: readonly number[]): Promise<Segment[]> {
  const segments: Segment[] = [];
  for (let i = 0; i < starts.length; i++) {
    const path = segmentPath(logPath, starts[i]);
    const next = starts[i + 1];
    segments.push({ start: starts[i], path, size: next !== undefined ? next - starts[i] : await fileSize(path) });
  }
  return segments;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Total bytes the pane has written (its end offset), 0 before its first output. The symlink names
 * the segment being written, so two calls answer without listing the directory (which holds every
 * pane's logs). The writer creates the next segment before it moves the link: a link still on a
 * full segment gives that segment's end, which is the next one's start, and nothing is written yet.
 */
export async function logEnd(logPath: string): Promise<number> {
  try {
    const target = await Deno.readLink(logPath);
    const parsed = parseSegmentName(join(dirname(logPath), basename(target)));
    if (parsed?.logPath === logPath) return parsed.start + await fileSize(join(dirname(logPath), basename(target)));
  } catch { /* no link yet, or a log older than rotation: list the segments */ }
  const segments = await listSegments(logPath);
  const last = segments[segments.length - 1];
  return last ? last.start + last.size : 0;
}

/** The first offset still on disk (> 0 once old segments were rotated away). */
export function logStart(segments: readonly Segment[]): number {
  return segments[0]?.start ?? 0;
}

/**
 * Reads bytes [from, to) of a log across segment files without loading more than asked.
 * Bytes before the oldest kept segment are not returned: the result starts at `max(from, start)`.
 */
export async function readRange(
  segments: readonly Segment[],
  from: number,
  to: number,
): Promise<{ start: number; bytes: Uint8Array }> {
  const begin = Math.max(from, logStart(segments));
  const out = new Uint8Array(Math.max(0, to - begin));
  let filled = 0;
  for (const segment of segments) {
    const segEnd = segment.start + segment.size;
    if (segEnd <= begin + filled || segment.start >= to) continue;
    const local = begin + filled - segment.start;
    const want = Math.min(to, segEnd) - (begin + filled);
    const n = await readAt(segment.path, local, out.subarray(filled, filled + want));
    filled += n;
    if (n < want || filled >= out.length) break; // a segment rotated away meanwhile: stay contiguous
  }
  return { start: begin, bytes: out.subarray(0, filled) };
}

/** Bytes [from, to) of the log at `logPath` by global offset, whatever segments it spans. */
export async function readLogRange(logPath: string, from: number, to: number): Promise<Uint8Array> {
  if (to <= from) return new Uint8Array(0);
  return (await readRange(await listSegments(logPath), from, to)).bytes;
}

/** Joins byte blocks into one array. */
export function concatBytes(blocks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.length;
  }
  return out;
}

/** Reads up to `target.length` bytes at `offset`; returns how many were read. */
export async function readAt(path: string, offset: number, target: Uint8Array): Promise<number> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0; // rotated away meanwhile
    throw error;
  }
  try {
    await file.seek(offset, Deno.SeekMode.Start);
    let filled = 0;
    while (filled < target.length) {
      const n = await file.read(target.subarray(filled));
      if (n === null || n === 0) break;
      filled += n;
    }
    return filled;
  } finally {
    file.close();
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}
