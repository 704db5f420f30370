import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { asksForInput, processExists, type ProcReader, readProcState } from "../watch/mod.ts";
import { lastLines, LineMatcher, type LineTest } from "./process_lines.ts";
import { deadPaneStatus, foreground } from "./shell.ts";
import { type Typed, wakeOn } from "./typed.ts";
import type { PaneEnds } from "../watch/mod.ts";
import { drained, type EndWatch, watchEnd } from "./pane_end_wait.ts";

export type ReadyOutcome = "ready" | "exited" | "timeout" | "input";

export interface ReadyResult {
  outcome: ReadyOutcome;
  matchedLine?: string;
  exitCode?: number | null;
  lastLines?: string[];
  /** The pane's own program ended (exited: the shell the command ran in is gone), with the signal if one ended it. */
  paneExit?: { signal: number | null };
  elapsedMs: number;
}

const LAST_LINES = 20;
/** Output quiet this long before the OS is asked whether the process waits for input. */
const QUIET_MS = 100;
/** Later asks while nothing changes back off up to this interval (each costs a tmux job). */
const MAX_ASK_INTERVAL_MS = 2_000;
const TICK_MS = 250;

/**
 * Follows a started process until its `ready` line, its exit, a question it waits on, or the
 * timeout. "Waits on a question" is the OS's answer (procstate.ts through the ProcReader), asked
 * once output has been quiet for QUIET_MS and then less and less often while it stays quiet: an
 * agent never waits out the timeout in front of `Password: `.
 */
export async function awaitReady(
  deps: { tmux: TmuxServer; proc: ProcReader; ends?: PaneEnds },
  typed: Typed,
  pane: PaneInfo,
  ready: LineTest,
  options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (elapsedMs: number) => void },
): Promise<ReadyResult> {
  const ended = watchEnd(deps.ends, pane);
  try {
    return await follow(deps, typed, pane, ready, options, ended);
  } finally {
    ended.stop();
  }
}

async function follow(
  deps: { tmux: TmuxServer; proc: ProcReader; ends?: PaneEnds },
  typed: Typed,
  pane: PaneInfo,
  ready: LineTest,
  options: { timeoutMs: number; signal?: AbortSignal; onProgress?: (elapsedMs: number) => void },
  ended: EndWatch,
): Promise<ReadyResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const matcher = new LineMatcher(ready);
  const deadline = started + options.timeoutMs;
  let nextProgress = started + 1000;
  let nextTick = started + TICK_MS;
  let seen = typed.received;
  let askAt = started + QUIET_MS;
  let askEvery = QUIET_MS;
  let asked: Promise<boolean> | null = null;
  let ticking: Promise<void> | null = null;
  let dead = false;
  let waiting = false;
  const tail = (end: number) => lastLines(typed.collector, typed.scanner.startEnd ?? end, end, LAST_LINES);
  for (;;) {
    const { scanner, collector } = typed;
    if (scanner.startEnd !== null) {
      const match = matcher.feed(collector, scanner.startEnd, scanner.end?.offset ?? typed.received);
      if (match !== null) return { outcome: "ready", matchedLine: match, elapsedMs: elapsed() };
    }
    if (scanner.end) {
      const lines = lastLines(collector, scanner.startEnd!, scanner.end.offset, LAST_LINES);
      return { outcome: "exited", exitCode: scanner.end.status, lastLines: lines, elapsedMs: elapsed() };
    }
    let now = performance.now();
    if (typed.received !== seen) {
      seen = typed.received;
      askEvery = QUIET_MS;
      askAt = now + QUIET_MS;
    }
    if (now >= nextTick && ticking === null) {
      nextTick = now + TICK_MS;
      // Asked aside: a ready line never waits for the answer.
      ticking = foreground(deps.tmux, pane.paneId)
        .then((state) => void (dead = state.dead && !(state.gone && deps.ends)), () => {}) // removed: PANE_GONE
        .finally(() => ticking = null);
    }
    if (ended.end && ended.end.kind !== "exited") throw ended.end.error; // removed, or tmux ended
    if (dead || ended.end) {
      await (ended.end ? drained(typed, pane) : settled(typed));
      return {
        outcome: "exited",
        exitCode: ended.end?.kind === "exited" ? ended.end.exitCode : await deadPaneStatus(deps.tmux, pane.paneId),
        lastLines: typed.scanner.startEnd === null ? [] : tail(typed.received),
        paneExit: { signal: ended.end?.kind === "exited" ? ended.end.signal : null },
        elapsedMs: elapsed(),
      };
    }
    if (asked === null && now >= askAt && scanner.startEnd !== null) {
      askEvery = Math.min(askEvery * 2, MAX_ASK_INTERVAL_MS);
      askAt = now + askEvery;
      // Asked aside: a snapshot takes a few milliseconds, and the ready line must not wait for it.
      const at = typed.received;
      asked = waitsForInput(deps.proc, typed, pane).then((answer) => answer && typed.received === at);
      asked.then((answer) => {
        if (answer) waiting = true;
        asked = null;
      });
    }
    if (waiting && !typed.scanner.end) {
      return { outcome: "input", lastLines: tail(typed.received), elapsedMs: elapsed() };
    }
    now = performance.now();
    if (now >= deadline || options.signal?.aborted) {
      return { outcome: "timeout", lastLines: tail(typed.received), elapsedMs: elapsed() };
    }
    if (now >= nextProgress) {
      options.onProgress?.(now - started);
      nextProgress += 1000;
    }
    const wait = Math.min(nextTick, deadline, nextProgress, scanner.startEnd !== null ? askAt : Infinity) - now;
    const answered = asked === null ? new Promise<void>(() => {}) : asked.then(() => {});
    await wakeOn(
      Promise.race([typed.changed(), answered, ended.seen, ticking ?? new Promise<void>(() => {})]),
      wait,
      options.signal,
    );
  }
}

/** The OS says the command's process blocks reading the terminal (or reads keys under a question). */
async function waitsForInput(proc: ProcReader, typed: Typed, pane: PaneInfo): Promise<boolean> {
  if (pane.pid === null) return false;
  const files = await proc.snapshot(pane.pid, { terminal: true });
  if (processExists(files, pane.pid) !== true) return false;
  const end = typed.received;
  const last = typed.collector.slice(Math.max(typed.scanner.startEnd ?? end, end - 1), end);
  const unfinishedLine = last.length > 0 && last[0] !== 0x0a;
  if (!asksForInput(readProcState(files, pane.pid), pane.pid, unfinishedLine)) return false;
  // The pane's shell back at its prompt prints its end mark first: give a late one a moment.
  await wakeOn(typed.changed(), 30);
  return !typed.scanner.end;
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
