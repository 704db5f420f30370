import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import { lastLines, LineMatcher, type LineTest } from "./process_lines.ts";
import { deadPaneStatus, foreground } from "./shell.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { InputProbe } from "./input_probe.ts";
import type { PaneEnds } from "../watch/mod.ts";
import { drained, type EndWatch, watchEnd } from "./pane_end_wait.ts";
import { endBeforeGoodbye } from "./goodbye.ts";

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
const TICK_MS = 250;

/**
 * Follows a started process until its `ready` line, its exit, a question it waits on, or the
 * timeout. "Waits on a question" is the OS's answer (InputProbe), asked once output has been
 * quiet and then less and less often while it stays quiet: an agent never waits out the timeout
 * in front of `Password: `.
 */
export async function awaitReady(
  deps: { tmux: TmuxServer; proc: ProcessFacts; ends?: PaneEnds },
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
  deps: { tmux: TmuxServer; proc: ProcessFacts; ends?: PaneEnds },
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
  const probe = new InputProbe(deps.proc, typed, pane, { holdMs: 0, shellReads: false });
  let ticking: Promise<void> | null = null;
  let dead = false;
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
        lastLines: typed.scanner.startEnd === null
          ? []
          : tail(endBeforeGoodbye(typed, typed.scanner.startEnd, typed.received)),
        paneExit: { signal: ended.end?.kind === "exited" ? ended.end.signal : null },
        elapsedMs: elapsed(),
      };
    }
    probe.tick(); // asked aside: a snapshot takes a few milliseconds, and the ready line must not wait for it
    if (probe.waiting && !typed.scanner.end) {
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
    const wait = Math.min(nextTick, deadline, nextProgress, probe.nextAt) - now;
    await wakeOn(
      Promise.race([typed.changed(), probe.answered(), ended.seen, ticking ?? new Promise<void>(() => {})]),
      wait,
      options.signal,
    );
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
