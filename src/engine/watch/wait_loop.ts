import type { PaneInfo } from "../panes/mod.ts";
import type { PaneEnds, PaneExit } from "./pane_ends.ts";

/**
 * The loop every wait shares: a deadline, prompt cancellation, throttled progress, and the end of
 * the pane waited on. The body sets up its event sources, calls `finish(value)` when its condition
 * holds, and returns a cleanup. Nothing here sleeps or polls: the loop only owns timers for the
 * deadline and progress.
 */

export type WaitEnd<T> =
  | { kind: "done"; value: T; elapsedMs: number }
  /** The pane's program exited (the pane stays, dead): nothing more can come. */
  | { kind: "exited"; exit: PaneExit; elapsedMs: number }
  | { kind: "timeout"; elapsedMs: number }
  | { kind: "cancelled"; elapsedMs: number };

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called at most once per `progressEveryMs` (default 1000) while the wait runs. */
  onProgress?: (elapsedMs: number, timeoutMs: number) => void;
  progressEveryMs?: number;
}

/** The pane a wait is on: when it can no longer answer, the wait ends (PaneEnds). */
export interface WaitOn {
  ends: PaneEnds;
  pane: PaneInfo;
  /** Lets the output written before the end reach the wait first (it may still match). */
  drain?: () => Promise<void>;
}

export type WaitBody<T> = (finish: (value: T) => void) => Promise<() => void> | (() => void);

/** Largest wait any tool accepts; longer requests are clamped and the clamp reported. */
export const MAX_WAIT_MS = 10 * 60_000;

/**
 * Runs `body` until it finishes, the deadline, cancellation, or (with `on`) the pane's end: its
 * program's exit is an outcome (`exited`); a pane removed or tmux out of reach rejects with the
 * ToolError that says so (PANE_GONE, TMUX_UNAVAILABLE, HOST_UNREACHABLE).
 */
export async function runWait<T>(options: WaitOptions, body: WaitBody<T>, on?: WaitOn): Promise<WaitEnd<T>> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { promise, resolve, reject } = Promise.withResolvers<WaitEnd<T>>();
  promise.catch(() => {}); // an end that comes while the body still sets up is not unhandled
  let settled = false;
  const settle = (end: WaitEnd<T> | { error: unknown }) => {
    if (settled) return;
    settled = true;
    if ("error" in end) reject(end.error);
    else resolve(end);
  };
  if (options.signal?.aborted) return { kind: "cancelled", elapsedMs: 0 };
  const onAbort = () => settle({ kind: "cancelled", elapsedMs: elapsed() });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const deadline = setTimeout(() => settle({ kind: "timeout", elapsedMs: elapsed() }), options.timeoutMs);
  const progress = options.onProgress
    ? setInterval(() => options.onProgress!(elapsed(), options.timeoutMs), options.progressEveryMs ?? 1000)
    : undefined;
  const unwatch = on?.ends.watch(on.pane, async (end) => {
    await on.drain?.().catch(() => {});
    const { kind, already } = end;
    if (kind !== "exited") return settle({ error: end.error });
    settle({ kind, exit: { exitCode: end.exitCode, signal: end.signal, already }, elapsedMs: elapsed() });
  });
  let cleanup: (() => void) | null = null;
  try {
    cleanup = await body((value) => settle({ kind: "done", value, elapsedMs: elapsed() }));
    return await promise;
  } finally {
    settled = true;
    clearTimeout(deadline);
    if (progress !== undefined) clearInterval(progress);
    options.signal?.removeEventListener("abort", onAbort);
    unwatch?.();
    cleanup?.();
  }
}
