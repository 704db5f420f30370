import type { Workspace } from "../panes/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type Executor, type Typed, wakeOn } from "./executor.ts";
import { waitForPrompt } from "./prompt.ts";
import { lastLines, LineMatcher } from "./process_lines.ts";
import { deliverSignal, type Signal } from "./signals.ts";
import { foreground, shellKind } from "./shell.ts";
import type { ServerEvents } from "../events/mod.ts";

export { SIGNALS } from "./signals.ts";
export type { Signal };

const PROCESS_KEEP_BYTES = 256 * 1024;
const LAST_LINES = 20;

export interface StartResult {
  pane: PaneInfo;
  outcome: "started" | "ready" | "exited" | "timeout";
  matchedLine?: string;
  exitCode?: number | null;
  lastLines?: string[];
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
    private readonly workspace: Workspace,
    readonly executor: Executor,
    private readonly events: ServerEvents,
  ) {}

  async start(
    command: string,
    options: {
      pane?: PaneInfo;
      name?: string;
      ready?: RegExp;
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (elapsedMs: number) => void;
      /** The connection that asked, for the trigger events of this process. */
      origin?: string;
    },
  ): Promise<StartResult> {
    const pane = options.pane ?? (await this.workspace.createPane({ name: options.name })).pane;
    const release = await this.executor.locks.acquire(pane.paneId, options.signal);
    let typed: Typed;
    try {
      const shell = await waitForPrompt(
        this.workspace.tmux,
        pane,
        "start a process in",
        options.signal,
        options.pane === undefined,
      );
      typed = await this.executor.type(pane, shell, command, { keepBytes: PROCESS_KEEP_BYTES });
    } finally {
      release();
    }
    this.#running.get(pane.paneId)?.typed.close();
    const running: Running = { typed, pane, origin: options.origin, exitReported: false, stopping: false };
    this.#running.set(pane.paneId, running);
    this.#closeOnExit(running);
    if (!options.ready) return { pane, outcome: "started", elapsedMs: 0 };
    const result = await this.#awaitReady(running, options.ready, options);
    if (result.outcome === "ready") this.#report(running, "ready", result.matchedLine ?? "", null);
    if (result.outcome === "exited") this.#reportExit(running, result.exitCode ?? null);
    return result;
  }

  async #awaitReady(
    { typed, pane }: Running,
    ready: RegExp,
    options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (elapsedMs: number) => void },
  ): Promise<StartResult> {
    const started = performance.now();
    const matcher = new LineMatcher(ready);
    const deadline = started + options.timeoutMs;
    let nextProgress = started + 1000;
    let nextTick = started + 250;
    for (;;) {
      const { scanner, collector } = typed;
      if (scanner.startEnd !== null) {
        const match = matcher.feed(collector, scanner.startEnd, scanner.end?.offset ?? typed.received);
        if (match !== null) {
          return { pane, outcome: "ready", matchedLine: match, elapsedMs: Math.round(performance.now() - started) };
        }
      }
      if (scanner.end) {
        return {
          pane,
          outcome: "exited",
          exitCode: scanner.end.status,
          lastLines: lastLines(collector, scanner.startEnd!, scanner.end.offset, LAST_LINES),
          elapsedMs: Math.round(performance.now() - started),
        };
      }
      const now = performance.now();
      const dead = now >= nextTick && (await foreground(this.workspace.tmux, pane.paneId)).dead;
      if (now >= nextTick) nextTick = now + 250;
      if (dead) {
        await settled(typed);
        return {
          pane,
          outcome: "exited",
          exitCode: (await foreground(this.workspace.tmux, pane.paneId)).deadStatus,
          lastLines: scanner.startEnd === null
            ? []
            : lastLines(collector, scanner.startEnd, typed.received, LAST_LINES),
          elapsedMs: Math.round(now - started),
        };
      }
      if (now >= deadline || options.signal?.aborted) {
        return {
          pane,
          outcome: "timeout",
          lastLines: lastLines(collector, scanner.startEnd ?? typed.received, typed.received, LAST_LINES),
          elapsedMs: Math.round(now - started),
        };
      }
      if (now >= nextProgress) {
        options.onProgress?.(now - started);
        nextProgress += 1000;
      }
      await wakeOn(typed.changed(), Math.min(nextTick - now, deadline - now, nextProgress - now), options.signal);
    }
  }

  async stop(pane: PaneInfo, signal: Signal, timeoutMs: number, abort?: AbortSignal): Promise<StopResult> {
    const started = performance.now();
    const running = this.#running.get(pane.paneId) ?? null;
    const typed = running?.typed ?? null;
    const elapsed = () => Math.round(performance.now() - started);
    const tail = (upTo?: number) =>
      typed?.scanner.startEnd != null
        ? lastLines(typed.collector, typed.scanner.startEnd, upTo ?? typed.received, LAST_LINES)
        : [];
    if (pane.dead || pane.pid === null) {
      return { wasRunning: false, stopped: true, exitCode: pane.exitCode, lastLines: tail(), elapsedMs: elapsed() };
    }
    const before = await foreground(this.workspace.tmux, pane.paneId);
    const atShell = (command: string) => shellKind(command) !== null && (typed === null || command === typed.shellName);
    if (before.dead || atShell(before.command)) {
      const exitCode = typed?.scanner.end?.status ?? null;
      return {
        wasRunning: false,
        stopped: true,
        exitCode,
        lastLines: tail(typed?.scanner.end?.offset),
        elapsedMs: elapsed(),
      };
    }
    if (running) running.stopping = true; // the caller learns the exit from the result
    await deliverSignal(this.workspace.tmux, pane, signal);
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
      const state = await foreground(this.workspace.tmux, pane.paneId);
      if (state.dead) {
        return { wasRunning: true, stopped: true, exitCode: state.deadStatus, lastLines: tail(), elapsedMs: elapsed() };
      }
      // Back at the shell: the same program as when the command was typed (`sh -c` in a dash pane is not).
      const kind = shellKind(state.command);
      if (kind && atShell(state.command)) {
        // The shell dropped the rest of the wrapper line (Ctrl-C): ask it for `$?`.
        if (typed) await wakeOn(typed.changed(), 100); // an end marker printed just before the prompt
        if (typed?.scanner.end) continue;
        const cut = typed?.received;
        const exitCode = await this.executor.probeStatus(pane, kind);
        const lines = typed ? lastLines(typed.collector, typed.scanner.startEnd ?? 0, cut!, LAST_LINES, true) : [];
        return { wasRunning: true, stopped: true, exitCode, lastLines: lines, elapsedMs: elapsed() };
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

  /**
   * Stops following a process's output once it has exited (keeping what it printed for
   * stop_process), and reports the exit unless another process replaced it in the pane.
   */
  async #closeOnExit(running: Running): Promise<void> {
    const { typed, pane } = running;
    let deadStatus: number | null = null;
    while (!typed.scanner.end && this.#running.get(pane.paneId) === running) {
      await wakeOn(typed.changed(), 1000);
      const state = await foreground(this.workspace.tmux, pane.paneId).catch(() => ({ dead: true, deadStatus: null }));
      if (state.dead) {
        deadStatus = state.deadStatus;
        break;
      }
    }
    typed.close();
    if (this.#running.get(pane.paneId) === running) this.#reportExit(running, typed.scanner.end?.status ?? deadStatus);
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

/** Waits until the pane's last bytes have been read from its log (no new bytes for 50 ms, at most 500 ms). */
async function settled(typed: Typed): Promise<void> {
  const deadline = performance.now() + 500;
  while (performance.now() < deadline) {
    const before = typed.received;
    await wakeOn(new Promise(() => {}), 50);
    if (typed.received === before && typed.scanner.startEnd !== null) return;
  }
}
