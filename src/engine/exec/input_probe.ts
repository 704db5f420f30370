import type { PaneInfo } from "../panes/mod.ts";
import { asksForInput, processExists, type ProcessFacts, type ProcState, readProcState } from "../facts/mod.ts";
import { type Typed, wakeOn } from "./typed.ts";

/** Output quiet this long before the OS is asked whether the command waits for input. */
const QUIET_MS = 100;
/** Later asks while nothing changes back off up to this interval (each costs a tmux job). */
const MAX_ASK_INTERVAL_MS = 2_000;

export interface ProbeOptions {
  /**
   * A question counts only when a second answer, this long after the first with no output
   * between, says the same (a program's brief read of the terminal does not count). 0: one answer.
   */
  holdMs: number;
  /**
   * The pane's own shell reading the terminal counts too: the command has begun and not ended,
   * so that shell runs a `read` builtin, not its prompt (dash and sh read fd 0 at both; fish
   * polls a raw terminal under its question).
   */
  shellReads: boolean;
}

/**
 * Whether a typed command waits for terminal input, asked of the OS (procstate.ts through the
 * ProcessFacts) once output has been quiet for QUIET_MS, then less and less often while it stays
 * quiet. Each ask runs aside: the caller's loop calls `tick` and wakes on `answered()`.
 */
export class InputProbe {
  #seen: number;
  #askAt: number;
  #askEvery = QUIET_MS;
  #asking: Promise<void> | null = null;
  #firstYes: number | null = null;
  #state: ProcState | null = null;
  /** The answer, held as `holdMs` asks: the command waits for input (its state is `state`). */
  waiting = false;

  constructor(
    private readonly proc: ProcessFacts,
    private readonly typed: Typed,
    private readonly pane: PaneInfo,
    private readonly options: ProbeOptions,
  ) {
    this.#seen = typed.received;
    this.#askAt = performance.now() + QUIET_MS;
  }

  /** The foreground process as the last positive answer saw it. */
  get state(): ProcState | null {
    return this.#state;
  }

  /** When the loop should wake for the next ask (Infinity before the command has begun). */
  get nextAt(): number {
    return this.typed.scanner.startEnd === null ? Infinity : this.#askAt;
  }

  /** Resolves when an ask in flight has its answer (never, when none is). */
  answered(): Promise<void> {
    return this.#asking ?? new Promise<void>(() => {});
  }

  /** Called on each turn of the caller's loop: new output restarts the quiet time; a due ask starts. */
  tick(): void {
    const now = performance.now();
    if (this.typed.received !== this.#seen) {
      this.#seen = this.typed.received;
      this.#askEvery = QUIET_MS;
      this.#askAt = now + QUIET_MS;
      this.#firstYes = null;
    }
    if (this.#asking !== null || this.waiting || now < this.#askAt || this.typed.scanner.startEnd === null) return;
    this.#askEvery = Math.min(this.#askEvery * 2, MAX_ASK_INTERVAL_MS);
    this.#askAt = now + this.#askEvery;
    const at = this.typed.received;
    this.#asking = this.#ask().then((state) => {
      if (state === null || this.typed.received !== at) {
        this.#firstYes = null;
        return;
      }
      this.#state = state;
      const asked = performance.now();
      if (this.options.holdMs === 0 || (this.#firstYes !== null && asked - this.#firstYes >= this.options.holdMs)) {
        this.waiting = true;
      } else if (this.#firstYes === null) {
        this.#firstYes = asked;
        this.#askAt = asked + this.options.holdMs; // asked again once the hold has passed
      }
    }, () => {}).finally(() => this.#asking = null);
  }

  /** The foreground process when it waits for input (or reads keys under a question), else null. */
  async #ask(): Promise<ProcState | null> {
    const { pane, typed } = this;
    if (pane.pid === null) return null;
    const look = await this.proc.look(pane.pid, { terminal: true });
    if (processExists(look, pane.pid) !== true) return null;
    const end = typed.received;
    const last = typed.collector.slice(Math.max(typed.scanner.startEnd ?? end, end - 1), end);
    const unfinishedLine = last.length > 0 && last[0] !== 0x0a;
    const state = readProcState(look, pane.pid);
    const shellAsks = state.waitingForInput === true ||
      (state.waitingForInput === null && state.rawTerminal === true && unfinishedLine); // fish's `read`
    const asks = (this.options.shellReads && shellAsks) || asksForInput(state, pane.pid, unfinishedLine);
    if (!asks) return null;
    // The pane's shell back at its prompt prints its end mark first: give a late one a moment.
    await wakeOn(typed.changed(), 30);
    return typed.scanner.end ? null : state;
  }
}
