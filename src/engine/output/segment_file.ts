import type { RotationLimits } from "./log_files.ts";
import { segmentPath } from "./rotation.ts";

/** A file closes this long after its pane last wrote (a remote host can have many quiet panes). */
const IDLE_CLOSE_MS = 5_000;

/** Appends bytes in order to a log's segment files, rotating them exactly as the local writer does. */
export class SegmentFile {
  #queue: Uint8Array[] = [];
  #draining: Promise<void> = Promise.resolve();
  #running = false;
  #file: Deno.FsFile | null = null;
  /** Global offset of the current segment's first byte, and bytes in it. */
  #segmentStart = 0;
  #segmentSize = 0;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(private readonly logPath: string, private readonly limits: RotationLimits) {}

  async begin(): Promise<void> {
    await this.#startSegment(0);
  }

  write(bytes: Uint8Array): void {
    if (this.#closed) return;
    this.#queue.push(bytes);
    if (!this.#running) {
      this.#running = true;
      this.#draining = this.#drain();
    }
  }

  flushed(): Promise<void> {
    return this.#draining;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#idle);
    void this.#draining.finally(() => this.#closeFile());
  }

  async #drain(): Promise<void> {
    clearTimeout(this.#idle);
    try {
      while (this.#queue.length > 0) {
        const chunks = this.#queue;
        this.#queue = [];
        for (const chunk of chunks) await this.#append(chunk);
      }
    } catch (error) {
      console.error(`[tmuxwright] cannot write the log ${this.logPath}: ${(error as Error).message}`);
      this.#queue = [];
    }
    // In the same turn as the last look at the queue: a write from now on starts a new drain. (Cleared
    // in a later `.finally`, a write in between was queued with no drain to take it: the bytes waited
    // for the pane's next output, and a command's end mark with them.)
    this.#running = false;
    if (!this.#closed) this.#idle = setTimeout(() => this.#closeFile(), IDLE_CLOSE_MS);
  }

  async #append(bytes: Uint8Array): Promise<void> {
    let rest = bytes;
    while (rest.length > 0) {
      const room = this.limits.maxBytes - this.#segmentSize;
      if (room <= 0) {
        await this.#startSegment(this.#segmentStart + this.#segmentSize);
        continue;
      }
      const part = rest.subarray(0, room);
      this.#file ??= await Deno.open(segmentPath(this.logPath, this.#segmentStart), { append: true });
      let written = 0;
      while (written < part.length) written += await this.#file.write(part.subarray(written));
      this.#segmentSize += part.length;
      rest = rest.subarray(part.length);
    }
  }

  /**
   * The next segment, the oldest one dropped. No `<log>` symlink: Deno makes symlinks only with
   * unscoped write permission, and readers find the newest segment by listing them without it.
   */
  async #startSegment(start: number): Promise<void> {
    this.#closeFile();
    this.#file = await Deno.open(segmentPath(this.logPath, start), { append: true, create: true, mode: 0o600 });
    this.#segmentStart = start;
    this.#segmentSize = 0;
    const dropped = start - (this.limits.keep + 1) * this.limits.maxBytes;
    if (dropped >= 0) await Deno.remove(segmentPath(this.logPath, dropped)).catch(() => {});
  }

  #closeFile(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = null;
  }
}
