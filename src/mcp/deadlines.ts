/**
 * Every tool call has a deadline by which it answers, whatever the machine's load
 * (docs/design/links_facts_views.md, "Deadlines"; docs/guide.md lists the bounds):
 *
 * - a tool that takes `timeout_ms` answers by that timeout (its default when not given, clamped to
 *   its maximum as the tool clamps it) plus GRACE_MS: its waits end at the timeout with an outcome,
 *   and the grace is for what follows (Ctrl-C and the shell's return, the answer itself);
 * - any other tool by its bound below (creating a pane or window, kills, everything else).
 *
 * The engine gets the deadline as an AbortSignal that fires GRACE_MS before it (or when the client
 * cancels): each wait it reaches ends then, with its own outcome or a TIMEOUT naming the step that
 * was slow. A call still not answered at the deadline is answered TIMEOUT all the same.
 */
import { DeadlineReached } from "../engine/errors.ts";

/** What follows a timeout: the answer is due this much later. */
export const GRACE_MS = 1_000;

/** Default and maximum `timeout_ms` of the tools that take one (ms). */
export const TIMEOUTS = {
  execute_command: { default: 30_000, max: 600_000 },
  start_process: { default: 30_000, max: 600_000 },
  stop_process: { default: 5_000, max: 60_000 },
  wait_for_text: { default: 30_000, max: 600_000 },
  watch_pane: { default: 60_000, max: 600_000 },
  run_in_repl: { default: 30_000, max: 600_000 },
  wait_for_channel: { default: 30_000, max: 600_000 },
  // With `wait` only: without it they send and answer, within the bound of any other tool.
  send_keys: { default: 30_000, max: 600_000 },
  paste_text: { default: 30_000, max: 600_000 },
} as const satisfies Record<string, { default: number; max: number }>;

/** Tools without a timeout: the bound by which each answers (ms). */
export const BOUNDS: Record<string, number> = {
  // A pane's program is let run and seen started (its start-up gate) within this; a shell still
  // running its start-up files then is not an error: the pane comes back with `starting: true`.
  // A session's first pane makes its workspace too, one at a time under the host's lock: 48
  // sessions making theirs at once took up to 13 s with light shells (bench_agents.ts).
  create_pane: 30_000,
  split_pane: 30_000,
  create_window: 30_000,
  create_session: 30_000,
  respawn_pane: 30_000,
  kill_pane: 10_000,
  kill_window: 10_000,
  kill_session: 10_000,
  kill_server: 10_000,
};

/** Any other tool (captures, listings, logs, searches, options, snapshots). */
export const DEFAULT_BOUND_MS = 30_000;

export type TimedTool = keyof typeof TIMEOUTS;

/** The timeout a tool uses: the one asked for or its default, clamped to its maximum. */
export function effectiveTimeout(tool: TimedTool, asked: number | undefined): { timeoutMs: number; clamped: boolean } {
  const { default: fallback, max } = TIMEOUTS[tool];
  const value = asked ?? fallback;
  return { timeoutMs: Math.min(value, max), clamped: value > max };
}

/** When a call must be answered, in ms from its start, and what sets it. */
export interface CallDeadline {
  answerByMs: number;
  /** "timeout_ms": the call's own timeout (+ GRACE_MS); "bound": the tool's bound. */
  from: "timeout_ms" | "bound";
}

export function callDeadline(tool: string, args: Record<string, unknown>): CallDeadline {
  const timed = (TIMEOUTS as Record<string, unknown>)[tool] !== undefined &&
    ((tool !== "send_keys" && tool !== "paste_text") || args.wait !== undefined);
  if (timed) {
    const asked = typeof args.timeout_ms === "number" ? args.timeout_ms : undefined;
    return { answerByMs: effectiveTimeout(tool as TimedTool, asked).timeoutMs + GRACE_MS, from: "timeout_ms" };
  }
  return { answerByMs: BOUNDS[tool] ?? DEFAULT_BOUND_MS, from: "bound" };
}

/** The engine's signal fires this long before the answer is due: its waits end and it answers. */
const WRAP_UP_MS = 700;
/**
 * The answer is sent this long before it is due: the reply's own trip, and timers that fire late on
 * a loaded machine (with heavy shells in the stress, this server's event loop lagged up to 2 s).
 */
const SEND_AHEAD_MS = 400;

/** A call's deadline at work: the signal its engine steps wait with, and the moment it must answer. */
export interface DeadlineTimer {
  /** Fires WRAP_UP_MS before the deadline (reason DeadlineReached) or when the client cancels. */
  readonly signal: AbortSignal;
  /** Resolves just before the answer is due: a call still running then is answered TIMEOUT. */
  readonly due: Promise<void>;
  stop(): void;
}

export function startDeadline(deadline: CallDeadline, cancel: AbortSignal): DeadlineTimer {
  const controller = new AbortController();
  // The reason is made when it fires: an Error's stack costs every call, and most calls end first.
  const wrapUp = setTimeout(
    () => controller.abort(new DeadlineReached(deadline.answerByMs)),
    Math.max(0, deadline.answerByMs - WRAP_UP_MS),
  );
  let fire = () => {};
  const due = new Promise<void>((resolve) => fire = resolve);
  const answer = setTimeout(fire, Math.max(0, deadline.answerByMs - SEND_AHEAD_MS));
  return {
    signal: AbortSignal.any([cancel, controller.signal]),
    due,
    stop() {
      clearTimeout(wrapUp);
      clearTimeout(answer);
    },
  };
}
