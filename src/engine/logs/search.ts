import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";

export interface SearchOptions {
  /** A compiled caller pattern (src/patterns/: linear time in the line). */
  pattern: { test(line: string): boolean };
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
/** Panes captured per pipelined batch; two batches are in flight at a time. */
const BATCH = 10;
/** Matching runs at most this long before other callers get the event loop. */
const SLICE_MS = 10;

/**
 * Searches the screen (and optionally scrollback) of many panes with pipelined `capture-pane -J`
 * (wrapped lines joined, so a match split by terminal wrapping is found). tmux runs a pipelined
 * batch's captures before it writes their replies, so the panes go in batches of BATCH with the
 * next batch always queued: tmux captures one batch while this process reads and matches the
 * one before (on two cores the two overlap instead of adding up).
 */
export async function searchPanes(
  tmux: TmuxServer,
  panes: readonly PaneInfo[],
  options: SearchOptions,
): Promise<{ results: PaneMatches[]; timedOut: boolean }> {
  const deadline = performance.now() + SEARCH_BUDGET_MS;
  const batches: PaneInfo[][] = [];
  for (let i = 0; i < panes.length; i += BATCH) batches.push(panes.slice(i, i + BATCH));
  const capture = (batch: readonly PaneInfo[]) => captureBatch(tmux, batch, options.scrollback);
  const inFlight = batches.slice(0, 2).map(capture);
  const results: PaneMatches[] = [];
  let yielded = performance.now();
  for (let b = 0; b < batches.length; b++) {
    const captures = await inFlight[b];
    if (b + 2 < batches.length) inFlight.push(capture(batches[b + 2]));
    for (let p = 0; p < captures.length; p++) {
      if (performance.now() > deadline) return { results, timedOut: true };
      const found = matchLines(captures[p], options);
      if (found) results.push({ pane: batches[b][p], ...found });
      if (performance.now() - yielded > SLICE_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        yielded = performance.now();
      }
    }
  }
  return { results, timedOut: false };
}

/** The matching lines of one pane, at most `perPane` kept (one more only tells that there were more). */
function matchLines(lines: readonly string[], options: SearchOptions): Omit<PaneMatches, "pane"> | null {
  const matches: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].length > MAX_LINE_CHARS ? lines[i].slice(0, MAX_LINE_CHARS) : lines[i];
    if (!options.pattern.test(text)) continue;
    if (matches.length === options.perPane) return { matches, truncated: true };
    matches.push({ line: i + 1, text: text.trimEnd() });
  }
  return matches.length > 0 ? { matches, truncated: false } : null;
}

/** One pipelined batch; panes can vanish between listing and capture: then one by one, skipping gone ones. */
async function captureBatch(tmux: TmuxServer, panes: readonly PaneInfo[], scrollback: number): Promise<string[][]> {
  const args = (
    pane: PaneInfo,
  ) => ["capture-pane", "-p", "-J", "-t", pane.paneId, "-S", String(-scrollback), "-E", "-"];
  return await tmux.batch(panes.map(args)).catch(() =>
    Promise.all(panes.map((pane) => tmux.run(...args(pane)).catch(() => [] as string[])))
  );
}
