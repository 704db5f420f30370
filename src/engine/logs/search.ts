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

/**
 * Searches the screen (and optionally scrollback) of many panes with one pipelined batch of
 * `capture-pane -J` (wrapped lines joined, so a match split by terminal wrapping is found).
 */
export async function searchPanes(
  tmux: TmuxServer,
  panes: readonly PaneInfo[],
  options: SearchOptions,
): Promise<{ results: PaneMatches[]; timedOut: boolean }> {
  const test = (line: string) => options.pattern.test(line);
  const captures = await tmux.batch(panes.map((pane) => [
    "capture-pane",
    "-p",
    "-J",
    "-t",
    pane.paneId,
    "-S",
    String(-options.scrollback),
    "-E",
    "-",
  ])).catch(async () => await captureEach(tmux, panes, options.scrollback));
  const deadline = performance.now() + SEARCH_BUDGET_MS;
  const results: PaneMatches[] = [];
  for (let p = 0; p < panes.length; p++) {
    if (performance.now() > deadline) return { results, timedOut: true };
    const lines = captures[p];
    const matches: { line: number; text: string }[] = [];
    let count = 0;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i].length > MAX_LINE_CHARS ? lines[i].slice(0, MAX_LINE_CHARS) : lines[i];
      if (!test(text)) continue;
      if (++count <= options.perPane) matches.push({ line: i + 1, text: text.trimEnd() });
    }
    if (count > 0) results.push({ pane: panes[p], matches, truncated: count > options.perPane });
  }
  return { results, timedOut: false };
}

/** Panes can vanish between listing and capture; then capture one by one and skip the gone ones. */
async function captureEach(tmux: TmuxServer, panes: readonly PaneInfo[], scrollback: number): Promise<string[][]> {
  return await Promise.all(
    panes.map((pane) =>
      tmux.run("capture-pane", "-p", "-J", "-t", pane.paneId, "-S", String(-scrollback), "-E", "-")
        .catch(() => [] as string[])
    ),
  );
}
