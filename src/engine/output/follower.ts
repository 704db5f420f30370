import { dirname } from "node:path";
import { logEnd, parseSegmentName } from "./rotation.ts";
import {
  type FollowHandle,
  type FollowOptions,
  nextSegment,
  type OnLogData,
  openSegment,
  type Subscriber,
} from "./follow_state.ts";

export type { FollowHandle, FollowOptions, OnLogData } from "./follow_state.ts";

// The read buffer starts small (20 quiet panes cost little) and grows while reads fill it.
const FIRST_CHUNK = 16 * 1024;
const MAX_CHUNK = 256 * 1024;
// A read this large means a burst: the next one waits a little to batch writes (see #schedule).
const BUSY_BYTES = 4 * 1024;
const BUSY_DELAY_MS = 5;
// While a flood goes on the pause doubles up to this: fewer, larger reads (a wait needs the
// newest lines promptly, not one read per write of the program).
const MAX_BUSY_DELAY_MS = 40;
// Polls that found little before a flooded log is followed by events again.
const QUIET_POLLS = 3;
// Where the directory cannot be watched (no inotify instance left: 128 per user by default, and
// every watching program takes one), logs are polled this often.
const UNWATCHED_POLL_MS = 10;

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
  /** Why the directory cannot be watched (logs are polled instead); null while it can. */
  #unwatchable: string | null = null;

  constructor(private readonly dir: string) {}

  /** Delivers every byte of `path` from `fromOffset` on, as it is written. */
  follow(path: string, fromOffset: number, onData: OnLogData, options: FollowOptions = {}): FollowHandle {
    if (dirname(path) !== this.dir) throw new RangeError(`not a followed log file: ${path}`);
    this.#ensureWatcher();
    const sub: Subscriber = {
      buffer: new Uint8Array(FIRST_CHUNK),
      borrow: options.borrow ?? false,
      busyDelay: BUSY_DELAY_MS,
      polling: false,
      quietPolls: 0,
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
    if (this.#unwatchable !== null) sub.polling = true;
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

  /** Whether the directory watch is open (closed while every followed log floods; for tests). */
  get watching(): boolean {
    return this.#watcher !== null;
  }

  /** Why logs are polled rather than watched (the directory cannot be watched); null while watched. */
  get unwatchable(): string | null {
    return this.#unwatchable;
  }

  close(): void {
    for (const set of this.#subscribers.values()) for (const sub of set) this.#unsubscribe(sub);
    this.#watcher?.close();
    this.#watcher = null;
  }

  #ensureWatcher(): void {
    if (this.#watcher || this.#unwatchable !== null) return;
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(this.dir, { recursive: false });
    } catch (error) {
      return this.#pollAll((error as Error).message);
    }
    this.#watcher = watcher;
    (async () => {
      try {
        for await (const event of watcher) {
          for (const path of event.paths) {
            const set = this.#subscribers.get(this.#owner(path));
            if (!set) continue;
            for (const sub of set) {
              if (path !== sub.filePath) sub.rotationHint = true;
              if (!sub.polling) this.#schedule(sub);
            }
          }
        }
      } catch (error) {
        if (this.#watcher === watcher) this.#pollAll((error as Error).message);
      }
    })();
  }

  /** From now on every followed log is polled: the directory cannot be watched (said once, on stderr). */
  #pollAll(reason: string): void {
    this.#unwatchable = reason;
    this.#watcher = null;
    console.error(
      `[tmuxwright] cannot watch the log directory (${reason}): logs are read every ${UNWATCHED_POLL_MS} ms`,
    );
    for (const set of this.#subscribers.values()) {
      for (const sub of set) {
        sub.polling = true;
        this.#schedule(sub);
      }
    }
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
    let burst = 0;
    try {
      do {
        sub.dirty = false;
        if (!sub.file && !await openSegment(sub)) return; // created on the pane's first output
        if (!sub.positioned) await sub.file!.seek(sub.offset - sub.fileStart, Deno.SeekMode.Start);
        sub.positioned = true; // reads are sequential from here: no seek per event
        for (;;) {
          if (sub.closed) return;
          const buffer = sub.buffer;
          const n = await sub.file!.read(buffer);
          burst += n ?? 0;
          if (n === null || n === 0) {
            if (await nextSegment(sub)) continue;
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
        // Events during a small read: read again at once (sparse output keeps its latency).
      } while (sub.dirty && !sub.closed && burst < BUSY_BYTES);
    } catch (error) {
      // Closing a follower (unsubscribe, shutdown) interrupts a read in flight (EINTR): not an error.
      if (sub.closed || error instanceof Deno.errors.Interrupted) return;
      console.error(`[tmuxwright] reading ${sub.path} failed: ${(error as Error).message}`);
    } finally {
      sub.draining = false;
      if (!sub.closed && (this.#pace(sub, burst) || sub.dirty || sub.polling)) this.#schedule(sub);
    }
  }

  /**
   * After a drain: a burst makes the next read wait, doubling while it lasts. A flood that keeps
   * the longest pause switches the log to polling: every write of the program raises an inotify
   * event, thousands a second, and handling them cost the server more CPU than reading the
   * bytes; with every followed log polling, the directory watch is closed until one is quiet
   * again (QUIET_POLLS polls that found little). True when it should be read again now (what
   * came between the last poll and the watch).
   */
  #pace(sub: Subscriber, burst: number): boolean {
    if (burst >= BUSY_BYTES) {
      sub.busyDelay = sub.busyUntil > 0 ? Math.min(sub.busyDelay * 2, MAX_BUSY_DELAY_MS) : BUSY_DELAY_MS;
      sub.busyUntil = performance.now() + sub.busyDelay;
      sub.quietPolls = 0;
      if (sub.busyDelay >= MAX_BUSY_DELAY_MS && !sub.polling) {
        sub.polling = true;
        this.#updateWatcher();
      }
      return false;
    }
    if (sub.polling && this.#unwatchable !== null) {
      sub.busyUntil = performance.now() + UNWATCHED_POLL_MS;
      return false;
    }
    if (sub.polling && ++sub.quietPolls < QUIET_POLLS) {
      sub.busyUntil = performance.now() + sub.busyDelay;
      return false;
    }
    sub.busyUntil = 0;
    sub.busyDelay = BUSY_DELAY_MS;
    if (sub.buffer.length > FIRST_CHUNK) sub.buffer = new Uint8Array(FIRST_CHUNK); // quiet again
    if (!sub.polling) return false;
    sub.polling = false;
    sub.rotationHint = true; // no event told of a segment started while polling
    this.#updateWatcher();
    return true;
  }

  /** The directory is watched while any followed log is not polling. */
  #updateWatcher(): void {
    for (const set of this.#subscribers.values()) {
      for (const sub of set) if (!sub.polling) return this.#ensureWatcher();
    }
    this.#watcher?.close();
    this.#watcher = null;
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
    this.#updateWatcher();
  }
}

/** Bytes a pane's log holds in total (its end offset; 0 when the pane has not written yet). */
export function logSize(path: string): Promise<number> {
  return logEnd(path);
}
