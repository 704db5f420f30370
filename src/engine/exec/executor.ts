import { cursorNow } from "../watch/mod.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { outputBudget, type OutputSpool } from "../output/mod.ts";
import type { PaneOutput } from "../output/mod.ts";
import { budgetedOutput } from "./budgeted.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { stoppedBy, ToolError } from "../errors.ts";
import { PaneLocks } from "./pane_locks.ts";
import { newMarkerId, quoteFor } from "./markers.ts";
import type { ShellKind } from "./prompt.ts";
import { type Prepared, Typist } from "./typist.ts";
import { deadPaneStatus } from "./shell.ts";
import { type Job, JobTable } from "./jobs.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { InputProbe } from "./input_probe.ts";
import { assertNotAsking, describeAsker } from "./question.ts";
import type { PolicyGate } from "../policy/mod.ts";
import type { PaneEnds } from "../watch/mod.ts";
import { endBeforeGoodbye } from "./goodbye.ts";
import type { ExecOptions, ExecResult } from "./exec_result.ts";
import { awaitCommand } from "./command_wait.ts";
import { INTERRUPT_GRACE_MS, settleAfterInterrupt } from "./interrupt_settle.ts";
import { probeStatus } from "./status_probe.ts";
import { prepareWithin } from "./prompt_deadline.ts";

export { type Typed, wakeOn };

/** After the timeout, the shell's return is awaited this long before answering (the answer is due 1 s after it). */
const SETTLE_GRACE_MS = 400;
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

  /** Waits for the pane's shell at its prompt within the call's timeout (prompt_deadline.ts). */
  prepareWithin(
    pane: PaneInfo,
    what: string,
    options: Pick<ExecOptions, "timeoutMs" | "startedAt" | "signal" | "fresh">,
  ): Promise<Prepared> {
    return prepareWithin(this.typist, pane, what, options);
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
      const deadline = callStarted + options.timeoutMs;
      const waiting = { tmux: this.tmux, ends: this.ends };
      const outcome = await awaitCommand(waiting, pane, typed, started, deadline, options, probe);
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

  /** After Ctrl-C: the shell back at its prompt (interrupt_settle.ts). */
  #settle(pane: PaneInfo, typed: Typed, deadline?: number): Promise<boolean> {
    return settleAfterInterrupt(this.tmux, this.jobs, pane, typed, deadline);
  }

  /** Types a status probe at the prompt (the shell keeps `$?` of the last command); null if none comes. */
  probeStatus(pane: PaneInfo, kind: ShellKind, timeoutMs = 1000): Promise<number | null> {
    return probeStatus(this.tmux, this.output, newMarkerId(++this.#markers), pane, kind, timeoutMs);
  }
}

export function cancelled(): ToolError {
  return new ToolError("CANCELLED", "The call was cancelled: the command was interrupted with Ctrl-C");
}
