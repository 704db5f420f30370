import type { TmuxServer } from "../../tmux/server.ts";
import type { RotationLimits } from "./log_files.ts";
import { segmentPath } from "./rotation.ts";

/** A file closes this long after its pane last wrote (a remote host can have many quiet panes). */
const IDLE_CLOSE_MS = 5_000;

/**
 * Durable local logs of a remote host's panes, written from its link's `%output` (nothing is
 * written on the host). The files have the layout of local logs (segments `<log>.<start>`, KEEP
 * full segments kept; no `<log>` symlink), so read_logs, waits, capture_since and
 * search read them unchanged. A pane is registered before its program is let run (the gate), so
 * the log holds its output from the first byte. tmux sends `%output` for the panes of the session
 * the link is attached to: every remote pane tmuxwright creates lives there.
 */
export class RemoteLogs {
  readonly #writers = new Map<string, SegmentWriter>();
  readonly #stop: () => void;

  constructor(link: TmuxServer, private readonly limits: RotationLimits) {
    this.#stop = link.onOutput((paneId, bytes) => this.#writers.get(paneId)?.write(bytes));
  }

  /** Starts the pane's log at `logPath` (its first segment and the symlink exist when this resolves). */
  async register(paneId: string, logPath: string): Promise<void> {
    const writer = new SegmentWriter(logPath, this.limits);
    await writer.begin();
    this.#writers.get(paneId)?.close();
    this.#writers.set(paneId, writer);
  }

  /** Whether the pane's output is being written (a pane of an earlier process is not). */
  has(paneId: string): boolean {
    return this.#writers.has(paneId);
  }

  /** Resolves once every byte received so far is on disk. */
  async flushed(paneId: string): Promise<void> {
    await this.#writers.get(paneId)?.flushed();
  }

  close(): void {
    this.#stop();
    for (const writer of this.#writers.values()) writer.close();
    this.#writers.clear();
  }
}

/** Appends one pane's bytes in order, rotating segments exactly as the local writer does. */
class SegmentWriter {
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
    if (this.#closed || bytes.length === 0) return;
    this.#queue.push(bytes);
    if (!this.#running) {
      this.#running = true;
      this.#draining = this.#drain().finally(() => this.#running = false);
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
