import type { TmuxServer } from "../../tmux/server.ts";
import { type AgentInPane, type AgentLook, lookAtAgent } from "../agents/mod.ts";

/** Looks caused by output: at most one per this many ms (spinners redraw ten times a second). */
const LOOK_GAP_MS = 30;
/** A look anyway this often: a hook's option or a title can change with nothing else drawn. */
const RECHECK_MS = 250;
/** Scrollback rows a look reads on the normal screen (a turn longer than a screen scrolls into it). */
const HISTORY_ROWS = 2000;

/**
 * The looks a turn takes at its agent CLI's pane: one soon after output (throttled), one at a
 * time, one every RECHECK_MS, and one at a time asked for; each handed to `decide`.
 */
export class Looks {
  closed = false;
  /** The latest look. */
  last: AgentLook;
  decide: (view: AgentLook) => void = () => {};
  readonly #top: number;
  #looking = false;
  #again = false;
  #lastAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #later: ReturnType<typeof setTimeout> | undefined;
  #recheck: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly tmux: TmuxServer,
    private readonly paneId: string,
    private readonly agent: AgentInPane,
    first: AgentLook,
    /** The CLI is drawing a frame: its screen is half drawn (a look waits for the frame's end). */
    private readonly drawing: () => boolean = () => false,
  ) {
    this.last = first;
    this.#top = first.firstRow; // the screen's top row when the turn began: the turn is below it
  }

  start(): void {
    this.#recheck = setInterval(() => void this.#look(), RECHECK_MS);
    void this.#look();
  }

  /** A look soon: at once, or LOOK_GAP_MS after the last one. */
  soon(): void {
    if (this.closed || this.#timer !== undefined) return;
    const wait = Math.max(0, LOOK_GAP_MS - (performance.now() - this.#lastAt));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#look();
    }, wait);
  }

  /** A look at `time` (performance.now()), whatever the pane writes meanwhile. */
  at(time: number): void {
    clearTimeout(this.#later);
    this.#later = setTimeout(() => this.soon(), Math.max(0, time - performance.now()));
  }

  /** The rows of the turn: below the screen's top when it began (on the normal screen, scrollback included). */
  turn(view: AgentLook): string[] {
    return view.lines.slice(Math.max(0, this.#top - view.firstRow));
  }

  /** A look now, outside the schedule (the turn's last). */
  async fresh(): Promise<AgentLook> {
    return await this.#take().catch(() => this.last);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#later);
    clearInterval(this.#recheck);
  }

  #take(): Promise<AgentLook> {
    return lookAtAgent(this.tmux, this.paneId, this.agent, this.last.alternate ? 0 : HISTORY_ROWS);
  }

  async #look(): Promise<void> {
    if (this.closed) return;
    if (this.drawing()) return; // the frame's end is output, which brings the next look
    if (this.#looking) return void (this.#again = true);
    this.#looking = true;
    this.#lastAt = performance.now();
    try {
      this.last = await this.#take();
      if (!this.closed) this.decide(this.last);
    } catch {
      /* the pane's end ends the wait */
    } finally {
      this.#looking = false;
      if (this.#again && !this.closed) {
        this.#again = false;
        this.soon();
      }
    }
  }
}
