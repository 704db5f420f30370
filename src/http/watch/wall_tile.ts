import type { WatchBackend, WatchMark, WatchPane, WatchStatus } from "./backend.ts";

/**
 * Output quiet this long (and for at least three looks at its output): the pane's process facts
 * are read again (it may wait for input now).
 */
const QUIET_MS = 500;
/** A quiet pane's facts are read again this often anyway (a silent program may start reading). */
const RECHECK_MS = 15_000;
/** One pane's facts are read at most this often (a pane that writes in bursts is not read after each). */
const PROBE_GAP_MS = 2000;

/** One tile's screen as the page draws it: rows with their colours, the cursor, when it was read. */
export interface WallFrame {
  pane_id: string;
  cols: number;
  rows: number;
  cursor: [number, number];
  lines: string[];
  /** When the pane last wrote (epoch ms), as far as the wall saw; null: not since the page opened. */
  active_at: number | null;
}

/**
 * What the wall keeps of one pane: a cheap sign of its output (its log's size, or its screen
 * compared), the last frame sent, and its state from its process facts, read again once its
 * output has been quiet for QUIET_MS, when tmux's facts of it change, and every RECHECK_MS.
 */
export class WallTile {
  pane: WatchPane;
  frame: WallFrame | null = null;
  frameJson = "";
  /** Output came since the last frame. */
  dirty = true;
  /** When the last frame was read (performance.now()). */
  frameAt = -Infinity;
  /** When the mark or screen is looked at next, and how often (set by the feed). */
  checkAt = 0;
  lookEvery = 250;
  /** Last output seen: epoch ms (for the page) and performance.now() (for quiet). */
  activeAt: number | null = null;
  changedAt = -Infinity;
  busy = false;
  probing = false;
  /** Its state has been read from its process facts at least once (or it has exited). */
  known = false;
  #probed: { status: WatchStatus; at: number } | null = null;
  /** When its facts were last read (performance.now()). */
  probedAt = -Infinity;
  #sig: string;
  #mark: WatchMark | null | undefined = undefined;
  #version: number | null = null;
  #text = "";
  #closed = false;

  constructor(private readonly backend: WatchBackend, pane: WatchPane) {
    this.pane = pane;
    this.#sig = signature(pane);
    this.known = pane.state === "exited";
  }

  /** New tmux facts of the pane; a change of what runs or whether it lives makes the last facts stale. */
  update(pane: WatchPane): void {
    this.pane = pane;
    const sig = signature(pane);
    if (sig !== this.#sig) this.#probed = null;
    // A pane that ended is drawn again (tmux writes its notice; the wall may put back its last lines),
    // and its state is tmux's from now on: one that ended before its facts were read is never probed.
    if (sig !== this.#sig && pane.state === "exited") this.dirty = true;
    if (pane.state === "exited") this.known = true;
    this.#sig = sig;
  }

  /**
   * The state now: tmux's once exited; else the facts read after its last output; while it writes,
   * running — but an agent CLI's last reading stands (it animates while it works, asks or waits).
   */
  status(now: number): WatchStatus {
    const tmux = this.pane;
    const fromTmux = { state: tmux.state, command: tmux.command, exit_code: tmux.exit_code, needs_person: false };
    if (tmux.state === "exited") return { ...fromTmux, needs_person: !!tmux.exit_code };
    if (this.#probed && (this.#probed.at >= this.changedAt || this.#agent)) return this.#probed.status;
    if (!this.#quiet(now)) return { ...fromTmux, state: "running" };
    return this.#probed?.status ?? fromTmux;
  }

  /**
   * Whether its facts should be read now (never for an exited pane, nor twice at once): once quiet,
   * and, for a pane never read and an agent CLI (which writes as it works), while it writes too.
   */
  probeDue(now: number): boolean {
    if (this.probing || this.pane.state === "exited") return false;
    if (!this.#quiet(now) && this.#probed !== null && !this.#agent) return false;
    if (this.#probed !== null && now - this.probedAt < PROBE_GAP_MS) return false;
    return this.#probed === null || this.#probed.at < this.changedAt || now - this.#probed.at >= RECHECK_MS;
  }

  async probe(question: boolean): Promise<void> {
    this.probing = true;
    const at = this.probedAt = performance.now();
    try {
      const status = await this.backend.probe(this.pane.pane_id, question);
      if (status && !this.#closed) this.#probed = { status, at };
    } finally {
      this.probing = false;
      this.known = true;
    }
  }

  /**
   * Looks for output: the mark's version (a stat, a counter) or, without a mark, the screen itself
   * (then the screen read is the frame). True when the pane wrote since the last look.
   */
  async check(): Promise<boolean> {
    const mark = await this.#marked();
    if (this.#closed) return false;
    if (mark === null) return await this.read();
    const version = await mark.version().catch(() => this.#version);
    const changed = this.#version !== null && version !== this.#version;
    this.#version = version;
    if (changed) this.#wrote();
    return changed;
  }

  /** Whether it has a cheap sign of output (else each look reads the screen). */
  get marked(): boolean {
    return this.#mark !== null;
  }

  /** Reads the screen into a new frame; true when it differs from the last one. */
  async read(): Promise<boolean> {
    this.dirty = false;
    this.frameAt = performance.now();
    await this.#marked(); // the mark first: whatever the pane writes after the screen read changes it
    const screen = await this.backend.screen(this.pane.pane_id).catch(() => null);
    if (!screen || this.#closed) return false;
    const text = `${screen.cols}x${screen.rows} ${screen.cursorX},${screen.cursorY}\n${screen.lines.join("\n")}`;
    if (text === this.#text) return false;
    if (this.#text !== "" && this.#mark === null) this.#wrote(); // a screen compared is the only sign
    this.#text = text;
    this.frame = {
      pane_id: this.pane.pane_id,
      cols: screen.cols,
      rows: screen.rows,
      cursor: [screen.cursorX, screen.cursorY],
      lines: screen.lines,
      active_at: this.activeAt,
    };
    this.frameJson = JSON.stringify(this.frame);
    return true;
  }

  /** Its last reading found an agent CLI in front (as long as tmux still has the same program there). */
  get #agent(): boolean {
    return this.#probed?.status.agent_cli !== undefined;
  }

  close(): void {
    this.#closed = true;
    this.#mark?.close();
  }

  /** Gets the mark (once) and its first version. */
  async #marked(): Promise<WatchMark | null> {
    if (this.#mark === undefined) this.#mark = await this.backend.mark(this.pane.pane_id).catch(() => null);
    const mark = this.#mark;
    if (mark && this.#version === null) this.#version = await mark.version().catch(() => null);
    return mark;
  }

  /** No output seen for QUIET_MS, and for three looks: a pane that writes on is never taken for a quiet one. */
  #quiet(now: number): boolean {
    return now - this.changedAt >= Math.max(QUIET_MS, 3 * this.lookEvery);
  }

  #wrote(): void {
    this.activeAt = Date.now();
    this.changedAt = performance.now();
    this.dirty = true;
  }
}

function signature(pane: WatchPane): string {
  return `${pane.state}\x1f${pane.exit_code}\x1f${pane.command}`;
}
