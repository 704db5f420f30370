/**
 * What the stress holds the server to, and what it saw: violations (each with the call and the
 * seed), calls per tool and outcome, latencies, and the faults injected (a call that overlaps a
 * fault is held only to "an answer with a code, in time").
 */
import type { Answer } from "./session.ts";

/** Every code an agent may see (src/engine/errors.ts), plus PANE_GONE from waits that end with their pane. */
export const KNOWN_CODES = new Set([
  "PANE_NOT_FOUND",
  "NOT_FOUND",
  "AMBIGUOUS_TARGET",
  "TIER_DENIED",
  "PROTECTED_TARGET",
  "INVALID_ARGUMENT",
  "NAME_IN_USE",
  "PANE_BUSY",
  "PANE_DEAD",
  "PANE_GONE",
  "PANE_NOT_STARTED",
  "UNSUPPORTED_SHELL",
  "TMUX_UNAVAILABLE",
  "TMUX_ERROR",
  "HOST_NOT_CONFIGURED",
  "HOST_UNREACHABLE",
  "HOST_KEY_UNKNOWN",
  "HOST_KEY_CHANGED",
  "CANCELLED",
  "TIMEOUT",
]);

/**
 * Every call answers by its deadline (src/mcp/deadlines.ts: timeout_ms + 1 s, or the tool's bound),
 * whatever the load; this much is allowed for the answer's own trip to the client (a busy event loop).
 */
export const SLACK_MS = 250;

export interface Fault {
  kind: string;
  start: number;
  end: number;
  /** A fault one actor made for itself (a client dropping mid-call): it excuses only that actor's calls. */
  actor?: string;
}

export class Ledger {
  readonly violations: string[] = [];
  readonly faults: Fault[] = [];
  readonly counts = new Map<string, number>();
  readonly latencies = new Map<string, number[]>();
  /** Tokens printed by commands that answered exactly: each must be in some pane log at the end. */
  readonly loggedTokens: string[] = [];
  calls = 0;

  constructor(readonly seed: number) {}

  fault(kind: string, actor?: string): Fault {
    const fault: Fault = { kind, start: performance.now(), end: Number.POSITIVE_INFINITY, actor };
    this.faults.push(fault);
    return fault;
  }

  /** Faults whose effects may reach a call made in [from, to]: those that began before it ended, up to 5 s after they ended. */
  faultsDuring(from: number, to: number, actor: string): Fault[] {
    // A server that was idle or in a long wait learns of a killed tmux on its next call ("retry").
    const reach = (f: Fault) => ["tmux-kill", "http-crash", "host-restart"].includes(f.kind) ? 20_000 : 5_000;
    return this.faults.filter((f) =>
      f.start <= to && f.end + reach(f) >= from && (f.actor === undefined || f.actor === actor)
    );
  }

  /**
   * The number of faults of these kinds not over by `since` (a pane may be gone because of one): a
   * fault in progress then counts, as a pane made on a host's tmux server just before the fault
   * restarted it is gone with it.
   */
  faultsSince(since: number, kinds: readonly string[]): number {
    return this.faults.filter((f) => f.end >= since && kinds.includes(f.kind)).length;
  }

  /**
   * Heavy shells load the machine past what its CPU can serve at once: a step that did not end by
   * its call's deadline is then answered TIMEOUT (in time, naming the step), which is excused and
   * counted. With light shells it is a violation like any unexplained error.
   */
  loaded = false;
  timeouts = 0;

  /** Violations whose text contains one of these are bugs already reported: printed and counted, not failed on. */
  known: string[] = [];
  readonly knownSeen: string[] = [];

  violation(actor: string, what: string, answer?: Answer): void {
    const detail = answer ? ` → ${answer.kind} ${JSON.stringify(answer).slice(0, 400)}` : "";
    const line = `[seed ${this.seed}] ${actor}: ${what}${detail}`;
    const known = this.known.some((text) => what.includes(text));
    (known ? this.knownSeen : this.violations).push(line);
    console.error(`[${new Date().toISOString().slice(11, 23)}] ${known ? "KNOWN" : "VIOLATION"} ${line}`);
  }

  /** Counts the answer and checks what every answer must be: a known code, and in time. */
  record(actor: string, tool: string, budgetMs: number, answer: Answer, from: number): void {
    this.calls++;
    const outcome = answer.kind === "error" ? answer.code : answer.kind;
    const key = `${tool} ${outcome}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const list = this.latencies.get(tool) ?? [];
    list.push(answer.ms);
    this.latencies.set(tool, list);
    // A call in flight when the HTTP server was SIGKILLed has no server left to answer it: the SDK
    // client waits for its own timeout. That is excused; any other late answer is not.
    const lost = answer.kind === "transport" &&
      this.faultsDuring(from, performance.now(), actor).some((f) => f.kind === "http-crash" || f.actor === actor);
    if (answer.ms > budgetMs + SLACK_MS && !lost) {
      this.violation(actor, `${tool} took ${Math.round(answer.ms)} ms, past its deadline of ${budgetMs} ms`, answer);
    }
    if (answer.kind === "error" && !KNOWN_CODES.has(answer.code)) {
      this.violation(actor, `${tool} answered an error without a known code`, answer);
    }
    if (answer.kind === "transport" && this.faultsDuring(from, performance.now(), actor).length === 0) {
      this.violation(actor, `${tool}: the transport broke with no fault injected`, answer);
    }
  }
}

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
