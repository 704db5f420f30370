import { dirname } from "node:path";
import { listSegments, logEnd, parseSegmentName, segmentPath } from "./rotation.ts";

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

interface Subscriber {
  buffer: Uint8Array;
  borrow: boolean;
  busyUntil: number;
  /** The current pause after a full read; grows while a flood goes on (see #schedule). */
  busyDelay: number;
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

// The read buffer starts small (20 quiet panes cost little) and grows while reads fill it.
const FIRST_CHUNK = 16 * 1024;
const MAX_CHUNK = 256 * 1024;
// A read this large means a burst: the next one waits a little to batch writes (see #schedule).
const BUSY_BYTES = 4 * 1024;
const BUSY_DELAY_MS = 5;
// While a flood goes on the pause doubles up to this: fewer, larger reads (a wait needs the
// newest lines promptly, not one read per write of the program).
const MAX_BUSY_DELAY_MS = 40;

/**
 * Follows append-only log files with `Deno.watchFs` (inotify on Linux): each write raises an
 * event, and only the new bytes are read. Measured at ~0.8 ms from write to bytes read,
 * against ~25 ms median for a 50 ms capture-pane poll. Offsets are offsets in the pane's whole
 * output: when a segment is read to its end and the next segment (named by that offset) exists,
 * reading goes on there, so rotation is invisible to subscribers.
 */
export class LogFollower {
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  /** Event path → the log it belongs to (parsed once: a flood raises thousands of events a second). */
  readonly #owners = new Map<string, string>();
  #watcher: Deno.FsWatcher | null = null;

  constructor(private readonly dir: string) {}

  /** Delivers every byte of `path` from `fromOffset` on, as it is written. */
  follow(path: string, fromOffset: number, onData: OnLogData, options: FollowOptions = {}): FollowHandle {
    if (dirname(path) !== this.dir) throw new RangeError(`not a followed log file: ${path}`);
    this.#ensureWatcher();
    const sub: Subscriber = {
      buffer: new Uint8Array(FIRST_CHUNK),
      borrow: options.borrow ?? false,
      busyDelay: BUSY_DELAY_MS,
      path,
      offset: fromOffset,
      file: null,
      fileStart: 0,
      filePath: null,
      positioned: false,
      rotationHint: true,
      onData,
      draining: false,
      busyUntil: 0,
      dirty: false,
      closed: false,
    };
    let set = this.#subscribers.get(path);
    if (!set) this.#subscribers.set(path, set = new Set());
    set.add(sub);
    void this.#drain(sub); // bytes written before the watch saw them
    return {
      close: () => this.#unsubscribe(sub),
      get offset() {
        return sub.offset;
      },
    };
  }

  close(): void {
    for (const set of this.#subscribers.values()) for (const sub of set) this.#unsubscribe(sub);
    this.#watcher?.close();
    this.#watcher = null;
  }

  #ensureWatcher(): void {
    if (this.#watcher) return;
    const watcher = Deno.watchFs(this.dir, { recursive: false });
    this.#watcher = watcher;
    (async () => {
      try {
        for await (const event of watcher) {
          for (const path of event.paths) {
            const set = this.#subscribers.get(this.#owner(path));
            if (!set) continue;
            for (const sub of set) {
              if (path !== sub.filePath) sub.rotationHint = true;
              this.#schedule(sub);
            }
          }
        }
      } catch (error) {
        if (this.#watcher === watcher) console.error("[tmuxwright] log watcher stopped:", error);
      }
    })();
  }

  #owner(path: string): string {
    let owner = this.#owners.get(path);
    if (owner === undefined) {
      if (this.#owners.size > 1024) this.#owners.clear(); // segments come and go: stay bounded
      owner = parseSegmentName(path)?.logPath ?? path;
      this.#owners.set(path, owner);
    }
    return owner;
  }

  /**
   * Reads at once after an event, unless the last read found a burst: then the next read waits
   * (5 ms, doubling up to 40 ms while the burst goes on) so a firehose is read in few large chunks
   * instead of one per tmux write (the reader's CPU would otherwise slow the writer on a two-core
   * machine). Sparse output keeps sub-millisecond latency.
   */
  #schedule(sub: Subscriber): void {
    if (sub.timer !== undefined || sub.closed) return;
    const wait = sub.busyUntil - performance.now();
    if (wait <= 0) return void this.#drain(sub);
    sub.timer = setTimeout(() => {
      sub.timer = undefined;
      void this.#drain(sub);
    }, wait);
  }

  async #drain(sub: Subscriber): Promise<void> {
    if (sub.draining) {
      sub.dirty = true;
      return;
    }
    sub.draining = true;
    try {
      do {
        sub.dirty = false;
        if (!sub.file && !await this.#open(sub)) return; // created on the pane's first output
        if (!sub.positioned) await sub.file!.seek(sub.offset - sub.fileStart, Deno.SeekMode.Start);
        sub.positioned = true; // reads are sequential from here: no seek per event
        let burst = 0;
        for (;;) {
          if (sub.closed) return;
          const buffer = sub.buffer;
          const n = await sub.file!.read(buffer);
          burst += n ?? 0;
          if (n === null || n === 0) {
            if (await this.#nextSegment(sub)) continue;
            break;
          }
          const start = sub.offset;
          sub.offset += n;
          const delivered = sub.onData(sub.borrow ? buffer.subarray(0, n) : buffer.slice(0, n), start);
          if (delivered instanceof Promise) await delivered;
          // A short read of a regular file means its end for now: skip the read that would say so.
          if (n < buffer.length) break;
          if (buffer.length < MAX_CHUNK) sub.buffer = new Uint8Array(buffer.length * 4);
        }
        if (burst >= BUSY_BYTES) {
          sub.busyDelay = sub.busyUntil > 0 ? Math.min(sub.busyDelay * 2, MAX_BUSY_DELAY_MS) : BUSY_DELAY_MS;
          sub.busyUntil = performance.now() + sub.busyDelay;
        } else {
          sub.busyUntil = 0;
          sub.busyDelay = BUSY_DELAY_MS;
          if (sub.buffer.length > FIRST_CHUNK) sub.buffer = new Uint8Array(FIRST_CHUNK); // quiet again
        }
      } while (sub.dirty && !sub.closed);
    } catch (error) {
      console.error(`[tmuxwright] reading ${sub.path} failed:`, error);
    } finally {
      sub.draining = false;
    }
  }

  /** Opens the segment holding `sub.offset` (or the oldest kept one, if that offset was rotated away). */
  async #open(sub: Subscriber): Promise<boolean> {
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
   * after an event for another file (a failed open costs an exception, at every end of data).
   */
  async #nextSegment(sub: Subscriber): Promise<boolean> {
    if (sub.offset === sub.fileStart || !sub.rotationHint) return false;
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

  #unsubscribe(sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
    clearTimeout(sub.timer);
    try {
      sub.file?.close();
    } catch { /* already closed */ }
    const set = this.#subscribers.get(sub.path);
    set?.delete(sub);
    if (set?.size === 0) this.#subscribers.delete(sub.path);
    if (this.#subscribers.size === 0 && this.#watcher) {
      this.#watcher.close();
      this.#watcher = null;
    }
  }
}

/** Bytes a pane's log holds in total (its end offset; 0 when the pane has not written yet). */
export function logSize(path: string): Promise<number> {
  return logEnd(path);
}
