import type { Workspace } from "../panes/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type Executor, type Typed, wakeOn } from "./executor.ts";
import { lastLines, type LineTest } from "./process_lines.ts";
import { awaitReady, type ReadyOutcome } from "./ready_wait.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import { deliverSignal, type Signal } from "./signals.ts";
import { deadPaneStatus, foreground, type ForegroundState, shellKind } from "./shell.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import type { Job } from "./jobs.ts";
import { stoppedBy } from "../errors.ts";
import type { ServerEvents } from "../events/mod.ts";

export { SIGNALS } from "./signals.ts";
export type { Signal };

const PROCESS_KEEP_BYTES = 256 * 1024;
/**
 * How long a running command may show the shell in the foreground between two of its programs. A
 * loaded machine stretches the gap (with 250 ms, the test's 60 ms builtin loop was now and then
 * taken for an end); a command that did end ends the wait as soon as its end mark arrives, so
 * only a command that never prints one costs the whole of it.
 */
const SHELL_GAP_MS = 1000;
const LAST_LINES = 20;
// After Ctrl-C, back at the shell: how long its end mark may take to arrive before `$?` is asked.
const END_MARK_GRACE_MS = 1000;
const WRAPPER_END_GRACE_MS = 100;

export interface StartResult {
  pane: PaneInfo;
  /** `input`: the process blocks reading the terminal (a question) before `ready` matched. */
  outcome: "started" | ReadyOutcome;
  matchedLine?: string;
  exitCode?: number | null;
  lastLines?: string[];
  /** The pane's own program ended too (see ReadyResult). */
  paneExit?: { signal: number | null };
  elapsedMs: number;
}

export interface StopResult {
  wasRunning: boolean;
  stopped: boolean;
  exitCode: number | null;
  lastLines: string[];
  stillRunning?: { command: string };
  elapsedMs: number;
}

/** A process followed until it exits; its exit is reported once, unless stop_process ended it. */
interface Running {
  /** The pane's job (exec's JobTable follows it until it ends). */
  job: Job;
  typed: Typed;
  pane: PaneInfo;
  origin?: string;
  exitReported: boolean;
  stopping: boolean;
}

/**
 * Long-running processes typed into owned shells: started, awaited until ready, stopped with
 * proof. Readiness and exits are published on the server's event stream as trigger events (an
 * exit also when it happens long after start_process returned).
 */
export class ProcessManager {
  /** The last process started in each pane, followed until it exits or is stopped. */
  readonly #running = new Map<string, Running>();

  constructor(
    private readonly tmux: TmuxServer,
    readonly executor: Executor,
    private readonly events: ServerEvents,
    private readonly proc: ProcessFacts,
  ) {}

  /** Starts `command` in `options.pane`, or in a new pane of `workspace` (the caller's owner's). */
  async start(
    workspace: Workspace,
    command: string,
    options: {
      pane?: PaneInfo;
      name?: string;
      ready?: LineTest;
      timeoutMs: number;
      /** When the call began: the timeout counts from there (making the pane and its shell's start are part of it). */
      startedAt?: number;
      signal?: AbortSignal;
      onProgress?: (elapsedMs: number) => void;
      /** The connection that asked, for the trigger events of this process. */
      origin?: string;
    },
  ): Promise<StartResult> {
    await this.executor.gate?.check({ command, pane: options.pane?.paneId ?? null, host: workspace.tmux.host });
    const startedAt = options.startedAt ?? performance.now();
    const pane = options.pane ?? (await workspace.createPane({ name: options.name, signal: options.signal })).pane;
    const release = await this.executor.locks.acquire(pane.paneId, options.signal).catch(() => {
      throw stoppedBy(options.signal, `waiting for the call before it on pane ${pane.paneId} to end`);
    });
    let typed: Typed;
    try {
      const prepared = await this.executor.prepareWithin(pane, "start the process", {
        timeoutMs: options.timeoutMs,
        startedAt,
        signal: options.signal,
        fresh: options.pane === undefined,
      });
      typed = await this.executor.type(prepared, command, { keepBytes: PROCESS_KEEP_BYTES });
    } finally {
      release();
    }
    const job = this.executor.jobs.current(pane.paneId)!; // typing made it the pane's job
    const running: Running = { job, typed, pane, origin: options.origin, exitReported: false, stopping: false };
    // Processes whose pane's job is gone or replaced are no longer anyone's to stop or report.
    for (const [paneId, earlier] of this.#running) {
      if (this.executor.jobs.current(paneId) !== earlier.job) this.#running.delete(paneId);
    }
    this.#running.set(pane.paneId, running);
    void this.#reportOnExit(running);
    if (!options.ready) return { pane, outcome: "started", elapsedMs: 0 };
    const deps = { tmux: this.tmux, proc: this.proc, ends: this.executor.ends };
    const timeoutMs = Math.max(0, startedAt + options.timeoutMs - performance.now()); // what is left of it
    const result = { pane, ...await awaitReady(deps, typed, pane, options.ready, { ...options, timeoutMs }) };
    if (result.outcome === "ready") this.#report(running, "ready", result.matchedLine ?? "", null);
    if (result.outcome === "input") this.#report(running, "input", result.lastLines?.at(-1) ?? "", null);
    if (result.outcome === "exited") this.#reportExit(running, result.exitCode ?? null);
    return result;
  }

  async stop(pane: PaneInfo, signal: Signal, timeoutMs: number, abort?: AbortSignal): Promise<StopResult> {
    const started = performance.now();
    // The pane's latest job: typed by start_process, or by execute_command (one that timed out still runs).
    const job = this.executor.jobs.current(pane.paneId);
    const startedHere = this.#running.get(pane.paneId);
    const running = startedHere !== undefined && startedHere.job === job ? startedHere : null;
    const typed = job?.typed ?? null;
    const elapsed = () => Math.round(performance.now() - started);
    const tail = (upTo?: number) =>
      typed?.scanner.startEnd != null
        ? lastLines(typed.collector, typed.scanner.startEnd, upTo ?? typed.received, LAST_LINES)
        : [];
    if (pane.dead || pane.pid === null) {
      return { wasRunning: false, stopped: true, exitCode: pane.exitCode, lastLines: tail(), elapsedMs: elapsed() };
    }
    const atShell = (command: string) => shellKind(command) !== null && (typed === null || command === typed.shellName);
    const before = await foregroundOf(this.tmux, pane.paneId, typed, atShell, started + timeoutMs, abort);
    if (before.dead || atShell(before.command)) {
      const exitCode = job?.exit?.code ?? null;
      return {
        wasRunning: false,
        stopped: true,
        exitCode,
        lastLines: tail(typed?.scanner.end?.offset),
        elapsedMs: elapsed(),
      };
    }
    if (running) running.stopping = true; // the caller learns the exit from the result
    await deliverSignal(this.tmux, this.proc, pane, signal);
    const deadline = started + timeoutMs;
    for (;;) {
      if (typed?.scanner.end) {
        const end = typed.scanner.end;
        return {
          wasRunning: true,
          stopped: true,
          exitCode: end.status,
          lastLines: tail(end.offset),
          elapsedMs: elapsed(),
        };
      }
      const state = await foreground(this.tmux, pane.paneId);
      if (state.dead) {
        const exitCode = await deadPaneStatus(this.tmux, pane.paneId);
        return { wasRunning: true, stopped: true, exitCode, lastLines: tail(), elapsedMs: elapsed() };
      }
      // Back at the shell: the same program as when the command was typed (`sh -c` in a dash pane is not).
      const kind = shellKind(state.command);
      if (kind && atShell(state.command)) {
        // An end mark printed just before the prompt may still be on its way: wait for it, not for
        // the first bytes (the `^C` echo came first, and a probe typed then shows in the pane). An
        // integrated shell prints it with every prompt, so it gets longer.
        const grace = performance.now() + (typed?.marks ? END_MARK_GRACE_MS : WRAPPER_END_GRACE_MS);
        while (typed && !typed.scanner.end && performance.now() < grace) {
          await wakeOn(typed.changed(), grace - performance.now());
        }
        if (typed?.scanner.end) continue;
        // The shell dropped the rest of the wrapper line (Ctrl-C): ask it for `$?`.
        const cut = typed?.received;
        // Event driven: the whole remaining budget costs nothing when the answer is quick.
        const probed = await this.executor.probeStatus(pane, kind, Math.max(1000, deadline - performance.now()));
        // The shell printed the probe's answer after everything before it: an end marker that was
        // only late (a loaded machine) has arrived by now, and `$?` would be the marker's printf.
        if (typed?.scanner.end) continue;
        job?.record(probed);
        const lines = typed ? lastLines(typed.collector, typed.scanner.startEnd ?? 0, cut!, LAST_LINES, true) : [];
        return { wasRunning: true, stopped: true, exitCode: probed, lastLines: lines, elapsedMs: elapsed() };
      }
      if (performance.now() >= deadline || abort?.aborted) {
        if (running) running.stopping = false; // it survived: a later exit is news again
        const stillRunning = { command: state.command };
        return {
          wasRunning: true,
          stopped: false,
          exitCode: null,
          lastLines: tail(),
          stillRunning,
          elapsedMs: elapsed(),
        };
      }
      await wakeOn(typed?.changed() ?? new Promise(() => {}), 10, abort);
    }
  }

  /** Reports the exit once the job table knows it, unless another process replaced this one in the pane. */
  async #reportOnExit(running: Running): Promise<void> {
    await running.job.whenEnded();
    const exit = running.job.exit;
    if (exit !== null && this.#running.get(running.pane.paneId) === running) this.#reportExit(running, exit.code);
  }

  #reportExit(running: Running, exitCode: number | null): void {
    if (running.exitReported || running.stopping) return;
    running.exitReported = true;
    const detail = exitCode === null ? "the process ended" : `the process exited with status ${exitCode}`;
    this.#report(running, "exit", detail, exitCode);
  }

  #report({ pane, origin }: Running, event: string, detail: string, exitCode: number | null): void {
    this.events.emit({
      kind: "trigger",
      source: "start_process",
      paneId: pane.paneId,
      paneName: pane.name,
      event,
      detail,
      exitCode,
      ...(origin === undefined ? {} : { origin }),
    });
  }
}

/**
 * tmux's view of the pane's foreground. A command that has begun and not ended can show the
 * shell for a moment (the shell runs builtins between two programs of a list, or has not forked
 * the next one yet): the shell seen then is looked at again for up to SHELL_GAP_MS, within the
 * stop's budget.
 */
async function foregroundOf(
  tmux: TmuxServer,
  paneId: string,
  typed: Typed | null,
  atShell: (command: string) => boolean,
  stopBy: number,
  abort?: AbortSignal,
): Promise<ForegroundState> {
  const deadline = Math.min(performance.now() + SHELL_GAP_MS, stopBy); // within the stop's own budget
  for (;;) {
    const state = await foreground(tmux, paneId);
    const running = typed !== null && typed.scanner.startEnd !== null && typed.scanner.end === null;
    if (state.dead || !atShell(state.command) || !running || performance.now() >= deadline || abort?.aborted) {
      return state;
    }
    await wakeOn(typed.changed(), 10, abort);
  }
}
