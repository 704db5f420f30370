import { cursorNow } from "../watch/mod.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { type Budget, outputBudget, type OutputSpool } from "../output/mod.ts";
import type { PaneOutput } from "../output/mod.ts";
import { type BudgetedOutput, budgetedOutput } from "./budgeted.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { deadlineCame, stoppedBy, ToolError } from "../errors.ts";
import { PaneLocks } from "./pane_locks.ts";
import { MarkerScanner, newMarkerId, quoteFor, statusProbeLine } from "./markers.ts";
import type { ShellKind } from "./prompt.ts";
import { type Prepared, Typist } from "./typist.ts";
import { deadPaneStatus, foreground, shellKind } from "./shell.ts";
import { type Job, JobTable } from "./jobs.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { InputProbe } from "./input_probe.ts";
import { type Asker, assertNotAsking, describeAsker } from "./question.ts";
import type { PolicyGate } from "../policy/mod.ts";
import type { PaneEnds } from "../watch/mod.ts";
import { drained, watchEnd } from "./pane_end_wait.ts";
import { endBeforeGoodbye } from "./goodbye.ts";

export { type Typed, wakeOn };

export interface ExecOptions {
  timeoutMs: number;
  /**
   * When the call began (performance.now()): the timeout counts from there, so a wait for the
   * pane's turn or its shell's prompt is part of it (default: when the command is typed).
   */
  startedAt?: number;
  cwd?: string;
  signal?: AbortSignal;
  /** The pane was just created: wait for its shell's first prompt. */
  fresh?: boolean;
  /** Called about once a second while the command runs. */
  onProgress?: (elapsedMs: number) => void;
  /** The output returned (default: outputBudget()). */
  budget?: Budget;
}

export interface ExecResult extends BudgetedOutput {
  /** exited (exitCode set), input (it waits for the terminal), timeout, shell_exited. */
  outcome: "exited" | "input" | "timeout" | "shell_exited";
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** After a timeout: whether Ctrl-C brought the shell back to its prompt. */
  interrupted?: boolean;
  /** The shell itself ended (the command ran `exit`). */
  shellExited?: boolean;
  /** Outcome input: where the rest of the command's output begins, and the program that asks. */
  cursor?: string;
  asker?: Asker;
}

const INTERRUPT_GRACE_MS = 2000;
/** After the timeout, the shell's return is awaited this long before answering (the answer is due 1 s after it). */
const SETTLE_GRACE_MS = 400;
const TICK_MS = 250;
/** A question holds this long (two answers, no output between): a brief read of the terminal is not one. */
const QUESTION_HOLD_MS = 500;

/** Runs commands in panes' own shells; one at a time per pane. */
export class Executor {
  readonly locks = new PaneLocks();
  /** The command each pane was last started for, followed until it exits. */
  readonly jobs: JobTable;
  readonly typist: Typist;
  #markers = 0;
  /** The job each pane last handed back with a question (a new command must not answer it). */
  readonly #asked = new Map<string, Job>();

  constructor(
    private readonly tmux: TmuxServer,
    private readonly output: PaneOutput,
    stateDir: string,
    /** Where budgeted output of panes without a log stays readable. */
    readonly spool: OutputSpool,
    /** Process facts: a shell that printed no mark is seen waiting at its prompt at once; a command's question. */
    private readonly proc?: ProcessFacts,
    /** The command policy: every command is judged before anything is typed. */
    readonly gate?: PolicyGate,
    /** When a pane can no longer answer (its shell exited, it was removed, tmux ended). */
    readonly ends?: PaneEnds,
  ) {
    this.jobs = new JobTable(tmux);
    this.typist = new Typist(tmux, output, stateDir, proc);
  }

  async execute(pane: PaneInfo, command: string, options: ExecOptions): Promise<ExecResult> {
    await this.gate?.check({ command, pane: pane.paneId, host: this.tmux.host });
    const release = await this.locks.acquire(pane.paneId, options.signal).catch(() => {
      throw stoppedBy(options.signal, `waiting for the call before it on pane ${pane.paneId} to end`);
    });
    const lock = { keep: false, release };
    try {
      const asked = this.#asked.get(pane.paneId);
      if (asked && (asked !== this.jobs.current(pane.paneId) || asked.exit !== null)) this.#asked.delete(pane.paneId);
      else if (asked && this.proc) await assertNotAsking(this.proc, pane);
      let prepared = await this.prepareWithin(pane, "run the command", options);
      if (prepared.marks !== null && options.cwd !== undefined) {
        // Typed as a person would: `cd` first (its error is the answer), then the command.
        const cd = await this.#run(prepared, `cd ${quoteFor(prepared.shell.kind, options.cwd)}`, {}, options, lock);
        if (cd.exitCode !== 0 || cd.timedOut) return cd;
        prepared = await this.prepareWithin(pane, "run the command", { ...options, fresh: false });
      }
      const cwd = prepared.marks === null ? options.cwd : undefined;
      return await this.#run(prepared, command, { cwd }, options, lock);
    } finally {
      if (!lock.keep) release();
    }
  }

  /**
   * Waits for the pane's shell at its prompt, until the call's timeout: a shell still starting
   * then is TIMEOUT naming it (nothing was typed), not an error of the pane.
   */
  async prepareWithin(
    pane: PaneInfo,
    what: string,
    options: Pick<ExecOptions, "timeoutMs" | "startedAt" | "signal" | "fresh">,
  ): Promise<Prepared> {
    const until = (options.startedAt ?? performance.now()) + options.timeoutMs;
    const timeout = AbortSignal.timeout(Math.max(0, until - performance.now()));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await this.typist.prepare(pane, `${what} in`, signal, options.fresh);
    } catch (error) {
      if (!signal.aborted) throw error;
      if (options.signal?.aborted) throw stoppedBy(options.signal, `waiting for the shell in pane ${pane.paneId}`);
      const state = options.fresh
        ? "still starting (its start-up files run)"
        : "not at its prompt yet (its start-up files or prompt hooks still run, or a program has the terminal)";
      throw new ToolError(
        "TIMEOUT",
        `Cannot ${what} within timeout_ms (${options.timeoutMs} ms): the shell in pane ${pane.paneId} was ` +
          `${state}; nothing was typed`,
        `Call again with pane_id "${pane.paneId}" (a larger timeout_ms gives it more time).`,
      );
    }
  }

  /** Types and follows one command until it ends, times out (Ctrl-C) or is cancelled. */
  async #run(
    prepared: Prepared,
    command: string,
    typing: { cwd?: string },
    options: ExecOptions,
    lock: { keep: boolean; release: () => void },
  ): Promise<ExecResult> {
    const { pane } = prepared;
    const started = performance.now(); // from before typing: the command runs as soon as its line is read
    const callStarted = options.startedAt ?? started;
    const typed = await this.type(prepared, command, typing);
    const probe = this.proc
      ? new InputProbe(this.proc, typed, pane, { holdMs: QUESTION_HOLD_MS, shellReads: true })
      : null;
    try {
      const outcome = await this.#await(pane, typed, started, callStarted + options.timeoutMs, options, probe);
      const durationMs = Math.round(performance.now() - started);
      const { scanner } = typed;
      const output = (start: number, end: number) =>
        budgetedOutput(typed, start, end, options.budget ?? outputBudget(), this.spool);
      if (outcome === "done") {
        const shellExited = scanner.shellExited ? { shellExited: true } : {};
        const out = output(scanner.startEnd!, scanner.end!.offset);
        const ended = scanner.shellExited ? "shell_exited" as const : "exited" as const;
        return { ...out, outcome: ended, exitCode: scanner.end!.status, timedOut: false, durationMs, ...shellExited };
      }
      if (outcome === "shell_gone") {
        const start = scanner.startEnd ?? typed.received;
        const out = output(start, endBeforeGoodbye(typed, start, typed.received));
        // The shell's own exit status is the pane's (an `exit 3` typed into it).
        const exitCode = await deadPaneStatus(this.tmux, pane.paneId);
        return { ...out, outcome: "shell_exited", exitCode, timedOut: false, durationMs, shellExited: true };
      }
      if (outcome === "input") {
        // No Ctrl-C: the program keeps waiting for the answer; the job table follows the command on.
        const out = output(scanner.startEnd!, typed.received);
        const cursor = await cursorNow(this.tmux, pane, this.output.followsLog(pane));
        const asker = await describeAsker(this.tmux, pane.paneId, probe!.state);
        this.#asked.set(pane.paneId, this.jobs.current(pane.paneId)!);
        return { ...out, outcome, exitCode: null, timedOut: false, durationMs, cursor, asker };
      }
      const cutAt = typed.received;
      await this.tmux.run("send-keys", "-t", pane.paneId, "C-c");
      if (outcome === "aborted") {
        lock.keep = true; // released once the shell is back, so a queued call cannot type into the command
        this.#settle(pane, typed).finally(lock.release);
        throw cancelled();
      }
      // Within the call's grace after its timeout: a shell that takes longer keeps the pane's turn until it is back.
      const settleBy = Math.min(
        performance.now() + INTERRUPT_GRACE_MS,
        callStarted + options.timeoutMs + SETTLE_GRACE_MS,
      );
      const interrupted = await this.#settle(pane, typed, settleBy);
      if (!interrupted && !typed.scanner.end && settleBy < performance.now() + 1) {
        lock.keep = true;
        this.#settle(pane, typed).finally(lock.release);
      }
      const out = output(scanner.startEnd ?? cutAt, scanner.end?.offset ?? cutAt);
      const exitCode = scanner.end?.status ?? null;
      return { ...out, outcome: "timeout", exitCode, timedOut: true, durationMs, interrupted };
    } finally {
      // The job table follows the command on (a timed-out one may still run); its output is not needed.
      typed.dropOutput();
    }
  }

  /** Waits until the pane's shell is at its prompt and follows its output (see Typist.prepare). */
  prepare(pane: PaneInfo, action: string, signal?: AbortSignal, fresh = false): Promise<Prepared> {
    return this.typist.prepare(pane, action, signal, fresh);
  }

  /** Types `command` at the prepared prompt and makes it the pane's job. */
  async type(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number } = {}): Promise<Typed> {
    const typed = await this.typist.type(prepared, command, options);
    this.jobs.follow(typed);
    return typed;
  }

  async #await(
    pane: PaneInfo,
    typed: Typed,
    started: number,
    deadline: number,
    options: ExecOptions,
    probe: InputProbe | null,
  ): Promise<"done" | "timeout" | "aborted" | "shell_gone" | "input"> {
    const ended = watchEnd(this.ends, pane);
    try {
      return await this.#follow(pane, typed, started, deadline, options, ended, probe);
    } finally {
      ended.stop();
    }
  }

  async #follow(
    pane: PaneInfo,
    typed: Typed,
    started: number,
    deadline: number,
    options: ExecOptions,
    ended: ReturnType<typeof watchEnd>,
    probe: InputProbe | null,
  ): Promise<"done" | "timeout" | "aborted" | "shell_gone" | "input"> {
    let nextProgress = started + 1000;
    let nextTick = started + TICK_MS;
    // Whether the shell itself ended, asked aside every TICK_MS: an end mark never waits for the answer.
    let asking: Promise<void> | null = null;
    let gone = false;
    for (;;) {
      if (typed.scanner.end) return "done";
      if (options.signal?.aborted) return deadlineCame(options.signal) ? "timeout" : "aborted";
      if (gone) return "shell_gone";
      if (ended.end) {
        // The pane was removed or tmux ended: PANE_GONE / TMUX_UNAVAILABLE. Its shell exited: as `exit` does.
        if (ended.end.kind !== "exited") throw ended.end.error;
        await drained(typed, pane);
        if (typed.scanner.end) return "done";
        return "shell_gone";
      }
      probe?.tick();
      if (probe?.waiting) return "input";
      const now = performance.now();
      if (now >= deadline) return "timeout";
      if (now >= nextTick && asking === null) {
        nextTick = now + TICK_MS;
        asking = foreground(this.tmux, typed.paneId)
          .then((state) => void (gone = state.dead && !(state.gone && this.ends)), () => {}) // removed: PANE_GONE
          .finally(() => asking = null);
      }
      if (now >= nextProgress) {
        options.onProgress?.(now - started);
        nextProgress += 1000;
      }
      const wake = Math.min(nextTick, deadline, nextProgress, probe?.nextAt ?? Infinity) - now;
      const answered = probe?.answered() ?? new Promise<void>(() => {});
      const events = [typed.changed(), answered, ended.seen, asking ?? new Promise<void>(() => {})];
      await wakeOn(Promise.race(events), wake, options.signal);
    }
  }

  /**
   * After Ctrl-C: waits for the end marker or the shell's prompt; false if the command kept running
   * (the job table goes on following it). Back at the prompt without a marker, the status is lost.
   */
  async #settle(pane: PaneInfo, typed: Typed, deadline = performance.now() + INTERRUPT_GRACE_MS): Promise<boolean> {
    while (performance.now() < deadline) {
      if (typed.scanner.end) return true;
      const state = await foreground(this.tmux, pane.paneId);
      // Back at the shell: the program that was there when the command was typed (`sh -c` in a dash pane is not).
      if (state.dead || (shellKind(state.command) && state.command === typed.shellName)) {
        if (!state.dead) this.jobs.current(pane.paneId)?.record(null);
        return !state.dead;
      }
      await wakeOn(typed.changed(), 10);
    }
    return false;
  }

  /** Types a status probe at the prompt (the shell keeps `$?` of the last command); null if none comes. */
  async probeStatus(pane: PaneInfo, kind: ShellKind, timeoutMs = 1000): Promise<number | null> {
    const id = newMarkerId(++this.#markers);
    const scanner = new MarkerScanner(id, false);
    let received = 0;
    let wake = () => {};
    const subscription = await this.output.subscribe(pane, (bytes) => {
      if (scanner.push(bytes, received)) wake();
      received += bytes.length;
    });
    try {
      const seen = new Promise<void>((resolve) => wake = resolve);
      await this.tmux.batch([
        ["send-keys", "-t", pane.paneId, "-l", "--", statusProbeLine(kind, id)],
        ["send-keys", "-t", pane.paneId, "Enter"],
      ]);
      await wakeOn(seen, timeoutMs);
      return scanner.end?.status ?? null;
    } finally {
      subscription.close();
    }
  }
}

export function cancelled(): ToolError {
  return new ToolError("CANCELLED", "The call was cancelled: the command was interrupted with Ctrl-C");
}
