/**
 * The loop every wait shares: a deadline, prompt cancellation, throttled progress. The body
 * sets up its event sources, calls `finish(value)` when its condition holds, and returns a
 * cleanup. Nothing here sleeps or polls: the loop only owns timers for the deadline and progress.
 */

export type WaitEnd<T> =
  | { kind: "done"; value: T; elapsedMs: number }
  | { kind: "timeout"; elapsedMs: number }
  | { kind: "cancelled"; elapsedMs: number };

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called at most once per `progressEveryMs` (default 1000) while the wait runs. */
  onProgress?: (elapsedMs: number, timeoutMs: number) => void;
  progressEveryMs?: number;
}

export type WaitBody<T> = (finish: (value: T) => void) => Promise<() => void> | (() => void);

/** Largest wait any tool accepts; longer requests are clamped and the clamp reported. */
export const MAX_WAIT_MS = 10 * 60_000;

export async function runWait<T>(options: WaitOptions, body: WaitBody<T>): Promise<WaitEnd<T>> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { promise, resolve } = Promise.withResolvers<WaitEnd<T>>();
  let settled = false;
  const settle = (end: WaitEnd<T>) => {
    if (settled) return;
    settled = true;
    resolve(end);
  };
  if (options.signal?.aborted) return { kind: "cancelled", elapsedMs: 0 };
  const onAbort = () => settle({ kind: "cancelled", elapsedMs: elapsed() });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const deadline = setTimeout(() => settle({ kind: "timeout", elapsedMs: elapsed() }), options.timeoutMs);
  const progress = options.onProgress
    ? setInterval(() => options.onProgress!(elapsed(), options.timeoutMs), options.progressEveryMs ?? 1000)
    : undefined;
  let cleanup: (() => void) | null = null;
  try {
    cleanup = await body((value) => settle({ kind: "done", value, elapsedMs: elapsed() }));
    return await promise;
  } finally {
    settled = true;
    clearTimeout(deadline);
    if (progress !== undefined) clearInterval(progress);
    options.signal?.removeEventListener("abort", onAbort);
    cleanup?.();
  }
}
