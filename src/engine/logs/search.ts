import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { Pattern } from "../../patterns/mod.ts";

export interface SearchOptions {
  /** A compiled caller pattern (src/patterns/: linear time in the line). */
  pattern: Pick<Pattern, "test" | "mayMatchIn" | "automaton">;
  /** Lines of scrollback searched above the visible screen (0 = screen only). */
  scrollback: number;
  /** Matched lines kept per pane. */
  perPane: number;
}

export interface PaneMatches {
  pane: PaneInfo;
  matches: { line: number; text: string }[];
  /** More lines matched than were kept. */
  truncated: boolean;
}

/** Lines are matched on their first 4,096 characters: bounds the work per line and the result size. */
export const MAX_LINE_CHARS = 4096;
/** A whole search stops after this long and says so. */
export const SEARCH_BUDGET_MS = 2000;
/** Matching runs at most this long before other callers get the event loop. */
const SLICE_MS = 10;

/**
 * Searches the screen (and optionally scrollback) of many panes with `capture-pane -J` (wrapped
 * lines joined, so a match split by terminal wrapping is found), all pipelined in one write on
 * the control connection; each pane is matched as its reply arrives, while tmux captures the next.
 */
export async function searchPanes(
  tmux: TmuxServer,
  panes: readonly PaneInfo[],
  options: SearchOptions,
): Promise<{ results: PaneMatches[]; timedOut: boolean }> {
  const deadline = performance.now() + SEARCH_BUDGET_MS;
  const args = (
    pane: PaneInfo,
  ) => ["capture-pane", "-p", "-J", "-t", pane.paneId, "-S", String(-options.scrollback), "-E", "-"];
  // A pane can vanish between listing and capture: its reply is an error, and it is skipped.
  const replies: (Promise<string[]> | null)[] = (await tmux.pipeline(panes.map(args)))
    .map((reply) => reply.catch(() => [] as string[]));
  const results: PaneMatches[] = [];
  let yielded = performance.now();
  for (let p = 0; p < panes.length; p++) {
    const lines = await replies[p]!;
    replies[p] = null; // a pane's lines can be collected once matched
    if (performance.now() > deadline) return { results, timedOut: true };
    const found = matchLines(lines, options);
    if (found) results.push({ pane: panes[p], ...found });
    if (performance.now() - yielded > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      yielded = performance.now();
    }
  }
  return { results, timedOut: false };
}

/** The matching lines of one pane, at most `perPane` kept (one more only tells that there were more). */
function matchLines(lines: readonly string[], options: SearchOptions): Omit<PaneMatches, "pane"> | null {
  const matches: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].length > MAX_LINE_CHARS ? lines[i].slice(0, MAX_LINE_CHARS) : lines[i];
    // A native search for a string every match holds rules out most lines before the automaton.
    if (options.pattern.automaton && !options.pattern.mayMatchIn(text)) continue;
    if (!options.pattern.test(text)) continue;
    if (matches.length === options.perPane) return { matches, truncated: true };
    matches.push({ line: i + 1, text: text.trimEnd() });
  }
  return matches.length > 0 ? { matches, truncated: false } : null;
}
