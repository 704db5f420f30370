import { listSegments, segmentPath } from "./rotation.ts";

export interface FollowHandle {
  /** Stops following; the file stays. */
  close(): void;
  /** Byte offset up to which data has been delivered. */
  readonly offset: number;
}

/**
 * Receives a follower's bytes. With `borrow`, `bytes` is a view of the follower's read buffer,
 * valid only until the callback returns (copy what you keep). A returned promise holds further
 * reads until it settles: a slow consumer is never handed more than one chunk at a time, and
 * the log (durable) holds the rest meanwhile.
 */
export type OnLogData = (bytes: Uint8Array, offset: number) => unknown;

export interface FollowOptions {
  /** Deliver views of one reused read buffer instead of a fresh copy per read. */
  borrow?: boolean;
}

/** One follow of one log: its read position, open segment file and pacing (see LogFollower). */
export interface Subscriber {
  buffer: Uint8Array;
  borrow: boolean;
  busyUntil: number;
  /** The current pause after a full read; grows while a flood goes on (see LogFollower). */
  busyDelay: number;
  /** A flood: read on a timer, events ignored (see LogFollower). */
  polling: boolean;
  quietPolls: number;
  timer?: ReturnType<typeof setTimeout>;
  path: string;
  offset: number;
  file: Deno.FsFile | null;
  /** Offset of the first byte of the open segment file. */
  fileStart: number;
  /** The segment file being read, and whether its read position is already at `offset`. */
  filePath: string | null;
  positioned: boolean;
  /** An event named another file than the one being read: a new segment may have started. */
  rotationHint: boolean;
  onData: OnLogData;
  draining: boolean;
  dirty: boolean;
  closed: boolean;
}

/** Opens the segment holding `sub.offset` (or the oldest kept one, if that offset was rotated away). */
export async function openSegment(sub: Subscriber): Promise<boolean> {
  const segments = await listSegments(sub.path);
  const segment = segments.findLast((s) => s.start <= sub.offset) ?? segments[0];
  if (!segment) return false;
  try {
    sub.file = await Deno.open(segment.path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  sub.fileStart = segment.start;
  sub.filePath = segment.path;
  sub.positioned = false;
  if (sub.offset < segment.start) sub.offset = segment.start;
  return true;
}

/**
 * At the end of a segment: switches to the next one if the writer has started it. Only tried
 * after an event for another file, or while polling (a failed open costs an exception).
 */
export async function nextSegment(sub: Subscriber): Promise<boolean> {
  if (sub.offset === sub.fileStart || !(sub.rotationHint || sub.polling)) return false;
  sub.rotationHint = false;
  let next: Deno.FsFile;
  const path = segmentPath(sub.path, sub.offset);
  try {
    next = await Deno.open(path, { read: true });
  } catch {
    return false;
  }
  sub.file?.close();
  sub.file = next;
  sub.fileStart = sub.offset;
  sub.filePath = path;
  sub.positioned = true; // a new segment is read from its start
  return true;
}
