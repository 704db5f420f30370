import { type WaitPattern, waitTimedOut } from "./backend.ts";
import { abortableDelay } from "./delay.ts";
import type { ChangeWatch } from "./pane_activity.ts";

export interface WaitSpec {
  waitMs: number;
  timeoutMs: number;
  pattern: WaitPattern | undefined;
  capture(): Promise<string>;
  /** Output events of the pane; null when there is no pattern to wait for. */
  changed: ChangeWatch | null;
  signal: AbortSignal;
}

/**
 * After `waitMs`, captures; while a pattern is given and does not match the capture, waits for
 * the pane's next output and captures again, until `timeoutMs` (408). Bursts of output while a
 * capture runs cost one more capture, not one per chunk.
 */
export async function waitForPattern(spec: WaitSpec): Promise<string> {
  await abortableDelay(spec.waitMs, spec.signal);
  if (!spec.pattern || !spec.changed) return await spec.capture();
  const deadline = performance.now() + spec.timeoutMs;
  for (;;) {
    const output = await spec.capture();
    if (spec.pattern.test(output)) return output;
    const left = deadline - performance.now();
    if (left <= 0) throw waitTimedOut(spec.timeoutMs);
    await raceDeadline(spec.changed.next(), left, spec.signal, spec.timeoutMs);
  }
}

function raceDeadline(next: Promise<void>, ms: number, signal: AbortSignal, timeoutMs: number): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      if (error) reject(error);
      else resolve();
    };
    const aborted = () => done(signal.reason ?? new Error("aborted"));
    const timer = setTimeout(() => done(waitTimedOut(timeoutMs)), ms);
    signal.addEventListener("abort", aborted, { once: true });
    next.then(() => done(), done);
  });
}
