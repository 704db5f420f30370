import type { Workspace } from "../panes/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type Executor, type Typed, wakeOn } from "./executor.ts";
import { waitForPrompt } from "./prompt.ts";
import { lastLines, LineMatcher } from "./process_lines.ts";
import { deliverSignal, type Signal } from "./signals.ts";
import { foreground, shellKind } from "./shell.ts";

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

/** Long-running processes typed into owned shells: started, awaited until ready, stopped with proof. */
export class ProcessManager {
  /** The last process started in each pane, followed until it exits or is stopped. */
  readonly #running = new Map<string, Typed>();

  constructor(private readonly workspace: Workspace, readonly executor: Executor) {}

  async start(
    command: string,
    options: {
      pane?: PaneInfo;
      name?: string;
      ready?: RegExp;
      timeoutMs: number;
      signal?: AbortSignal;
      onProgress?: (elapsedMs: number) => void;
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
    this.#running.get(pane.paneId)?.close();
    this.#running.set(pane.paneId, typed);
    this.#closeOnExit(pane.paneId, typed);
    const started = performance.now();
    if (!options.ready) return { pane, outcome: "started", elapsedMs: 0 };

    const matcher = new LineMatcher(options.ready);
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
    const typed = this.#running.get(pane.paneId) ?? null;
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

  /** Stops following a process's output once it has exited (keeping what it printed for stop_process). */
  async #closeOnExit(paneId: string, typed: Typed): Promise<void> {
    while (!typed.scanner.end && this.#running.get(paneId) === typed) {
      await wakeOn(typed.changed(), 1000);
      if ((await foreground(this.workspace.tmux, paneId).catch(() => ({ dead: true }))).dead) break;
    }
    typed.close();
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
