import type { TmuxServer } from "../../tmux/server.ts";
import type { RotationLimits } from "./log_files.ts";
import { readLogRange } from "./rotation.ts";
import { SegmentFile } from "./segment_file.ts";
import {
  advance,
  contextLines,
  gapText,
  locateStart,
  type LogMark,
  lostLine,
  MARK_FORMAT,
  parseGrid,
  recordGap,
} from "./gap_fill.ts";

/** The pane option that names an owned pane's log, URI-encoded (src/engine/panes/panes.ts). */
const LOG_OPTION = "@tmuxwright_log";
/** How much of a log's end is read to find it in the host's grid. */
const CONTEXT_BYTES = 16 * 1024;
/** A pane that wrote is marked this long after (at most this often while it keeps writing). */
const MARK_EVERY_MS = 250;

/**
 * Durable local logs of a remote host's panes, written from its link's `%output` (nothing is
 * written on the host). The files have the layout of local logs (segments `<log>.<start>`, KEEP
 * full segments kept; no `<log>` symlink), so read_logs, waits, capture_since and search read them
 * unchanged. A pane is registered before its program is let run (the gate), so the log holds its
 * output from the first byte. tmux sends `%output` for the panes of the session the link is
 * attached to: every remote pane tmuxwright creates lives there.
 *
 * When the link goes down, output stops arriving; when it is back, each log gets what the pane
 * wrote meanwhile from the host's grid (gap_fill.ts), exactly once: the pane's `%output` is dropped
 * from the loss until the grid is captured, and held from then until the filled text is written.
 */
export class RemoteLogs {
  readonly #writers = new Map<string, PaneLog>();
  readonly #stops: (() => void)[];
  #downSince: Date | null = null;

  constructor(private readonly link: TmuxServer, private readonly limits: RotationLimits) {
    this.#stops = [
      link.onOutput((paneId, bytes) => this.#writers.get(paneId)?.write(bytes)),
      link.onStatus((status) => {
        if (status.kind === "lost") this.#lost();
        if (status.kind === "connected" && status.reconnect) this.#back();
      }),
    ];
  }

  /**
   * Starts the pane's log at `logPath` (its first segment exists when this resolves). `step`: the
   * pane's first bytes move its cursor down and are not the program's (a start-up gate's step).
   */
  async register(paneId: string, logPath: string, step: { bytes: number; rows: number } | null = null): Promise<void> {
    const log = new PaneLog(this.link, paneId, logPath, this.limits, step);
    await log.begin();
    this.#writers.get(paneId)?.close();
    this.#writers.set(paneId, log);
  }

  /** Resolves once every byte received so far is on disk. */
  async flushed(paneId: string): Promise<void> {
    await this.#writers.get(paneId)?.flushed();
  }

  close(): void {
    for (const stop of this.#stops) stop();
    for (const writer of this.#writers.values()) writer.close();
    this.#writers.clear();
  }

  #lost(): void {
    this.#downSince ??= new Date();
    for (const log of this.#writers.values()) log.suspend();
  }

  #back(): void {
    const down = this.#downSince ?? new Date();
    this.#downSince = null;
    for (const [paneId, log] of this.#writers) {
      log.fill(down, this.link.host).then((alive) => {
        if (alive) return;
        log.close();
        // Only this log: a pane made since with the same id (a restarted host gives ids again) has its own.
        if (this.#writers.get(paneId) === log) this.#writers.delete(paneId);
      }).catch((error) => {
        console.error(`[tmuxwright] cannot fill the log of ${this.link.host}:${paneId}: ${(error as Error).message}`);
      });
    }
  }
}

/** One remote pane's log: appends its bytes in order, marks where they put the cursor, fills gaps. */
class PaneLog {
  readonly #file: SegmentFile;
  /** Bytes accepted so far (written or queued): the log's end once the queue drains. */
  #accepted = 0;
  #mode: "live" | "dropping" | "holding" = "live";
  #held: Uint8Array[] = [];
  #mark: LogMark = { line: 0, x: 0, offset: 0, width: 80 };
  #markTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** Bytes of the start-up gate's step still to leave out. */
  #skip: number;

  constructor(
    private readonly link: TmuxServer,
    private readonly paneId: string,
    private readonly logPath: string,
    limits: RotationLimits,
    private readonly step: { bytes: number; rows: number } | null,
  ) {
    this.#file = new SegmentFile(logPath, limits);
    this.#skip = step?.bytes ?? 0;
  }

  async begin(): Promise<void> {
    await this.#file.begin();
    // The pane is new: line 0 (below the gate's step), column 0 at offset 0; its width comes with the first mark.
    const [line] = await this.link.run("display-message", "-p", "-t", this.paneId, MARK_FORMAT);
    const grid = parseGrid(line);
    const below = this.step?.rows ?? 0;
    if (grid) {
      this.#mark = { line: grid.historySize + grid.cursorY + below, x: grid.cursorX, offset: 0, width: grid.width };
    }
  }

  write(bytes: Uint8Array): void {
    if (this.#skip > 0 && bytes.length > 0) {
      const dropped = Math.min(this.#skip, bytes.length);
      this.#skip -= dropped;
      bytes = bytes.subarray(dropped);
    }
    if (this.#closed || bytes.length === 0 || this.#mode === "dropping") return;
    if (this.#mode === "holding") {
      this.#held.push(bytes);
      return;
    }
    this.#append(bytes);
    this.#markTimer ??= setTimeout(() => this.#takeMark(), MARK_EVERY_MS);
  }

  flushed(): Promise<void> {
    return this.#file.flushed();
  }

  suspend(): void {
    this.#mode = "dropping";
    clearTimeout(this.#markTimer);
    this.#markTimer = undefined;
  }

  /**
   * After a reconnect: one look at the grid and one capture of it, pipelined; output is held from
   * the capture's reply (tmux sent everything before it as grid, everything after as `%output`).
   * Appends the gap's text (or the lost line), then what was held. False when the pane is gone.
   */
  async fill(down: Date, host: string): Promise<boolean> {
    const replies = await this.link.pipeline([
      ["display-message", "-p", "-t", this.paneId, `#{pane_id}\x1f#{${LOG_OPTION}}\x1f${MARK_FORMAT}`],
      ["capture-pane", "-p", "-S", "-", "-E", "-", "-t", this.paneId],
    ], [undefined, () => this.#mode = "holding"]);
    const [looked, captured] = await Promise.allSettled(replies);
    const [id, log, marks] = (looked.status === "fulfilled" ? looked.value[0] ?? "" : "").split("\x1f");
    const now = parseGrid(marks);
    // The same pane: its id, and its own log (after a restart of the host's tmux the id names another pane).
    const same = id === this.paneId && log === encodeURIComponent(this.logPath);
    if (!same || now === null || captured.status === "rejected") {
      this.#release();
      if (looked.status === "rejected") throw looked.reason; // the link failed again: the next reconnect fills
      return same; // gone: nothing more will come
    }
    const grid = captured.value;
    await this.#file.flushed();
    const mark = this.#mark;
    const after = await readLogRange(this.logPath, mark.offset, this.#accepted);
    const computed = advance(mark, after, mark.width);
    const tail = await readLogRange(this.logPath, Math.max(0, this.#accepted - CONTEXT_BYTES), this.#accepted);
    const cursor = { line: now.historySize + now.cursorY, x: now.cursorX };
    // tmux trims a full history by a tenth at a time: below 90% nothing was ever dropped.
    const mayBeTrimmed = now.historySize >= now.historyLimit * 0.9;
    const start = locateStart(grid, computed, contextLines(new TextDecoder().decode(tail)), mayBeTrimmed);
    const text = start === null ? null : gapText(grid, start, cursor);
    const from = this.#accepted;
    const up = new Date();
    const filled = text ?? lostLine(host, down, up) + grid.slice(now.historySize, cursor.line + 1).join("\r\n");
    if (filled.length > 0) {
      this.#append(new TextEncoder().encode(filled));
      await this.#file.flushed();
      await recordGap(this.logPath, {
        from,
        to: this.#accepted,
        kind: text === null ? "lost" : "history",
        down: down.toISOString(),
        up: up.toISOString(),
      });
    }
    this.#mark = { line: cursor.line, x: cursor.x, offset: this.#accepted, width: now.width };
    this.#release();
    return true;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#markTimer);
    this.#file.close();
  }

  #append(bytes: Uint8Array): void {
    this.#accepted += bytes.length;
    this.#file.write(bytes);
  }

  #release(): void {
    this.#mode = "live";
    const held = this.#held;
    this.#held = [];
    for (const bytes of held) this.write(bytes);
  }

  /** Where the log's end put the cursor: read in order with `%output`, so the offset is exact. */
  #takeMark(): void {
    this.#markTimer = undefined;
    if (this.#closed || this.#mode !== "live") return;
    let offset = 0;
    this.link.pipeline([["display-message", "-p", "-t", this.paneId, MARK_FORMAT]], [() => offset = this.#accepted])
      .then(([reply]) => reply)
      .then(([line]) => {
        const grid = parseGrid(line);
        if (grid && this.#mode === "live") {
          this.#mark = { line: grid.historySize + grid.cursorY, x: grid.cursorX, offset, width: grid.width };
        }
      })
      .catch(() => {}); // the link went down: the last mark stands
  }
}
