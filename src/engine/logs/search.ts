import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import type { PaneInfo } from "../panes/mod.ts";

export interface SearchOptions {
  pattern: string;
  regex: boolean;
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

export const MAX_PATTERN_CHARS = 512;
/** Lines are matched on their first 4,096 characters: bounds regex work per line. */
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
  const test = compileMatcher(options.pattern, options.regex);
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

/**
 * Literal substring test, or a validated regex: bounded length, must compile, and no nested
 * quantifiers or backreferences (the shapes that backtrack catastrophically). Lines are capped too.
 */
export function compileMatcher(pattern: string, regex: boolean): (line: string) => boolean {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_CHARS) {
    throw new ToolError("INVALID_ARGUMENT", `Invalid pattern: 1 to ${MAX_PATTERN_CHARS} characters`);
  }
  if (!regex) return (line) => line.includes(pattern);
  const danger = riskyRegex(pattern);
  if (danger) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Invalid regex ${JSON.stringify(pattern)}: ${danger}`,
      "Simplify the pattern, or search for a literal string with regex: false.",
    );
  }
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (error) {
    throw new ToolError("INVALID_ARGUMENT", `Invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  return (line) => re.test(line);
}

/**
 * Why a pattern may backtrack catastrophically, or null: a repeated group (`*`, `+`, `{}`) that
 * holds a quantifier or an alternation, or a backreference.
 */
export function riskyRegex(pattern: string): string | null {
  if (/\\[1-9]|\\k</.test(pattern)) return "backreferences are not allowed";
  const stack: boolean[] = []; // per open group: whether it contains a quantifier or `|`
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "(") stack.push(false);
    else if (ch === "|" && stack.length > 0) stack[stack.length - 1] = true;
    else if (ch === ")") {
      const quantifiedInside = stack.pop() ?? false;
      const next = pattern[i + 1];
      const quantifiedGroup = next === "*" || next === "+" || next === "{" || next === "?";
      if (quantifiedInside && quantifiedGroup && next !== "?") {
        return "a repeated group that holds a quantifier or | (such as (a+)+ or (a|aa)*) is not allowed";
      }
      if (stack.length > 0 && (quantifiedInside || quantifiedGroup)) stack[stack.length - 1] = true;
    } else if ((ch === "*" || ch === "+" || ch === "{") && stack.length > 0) {
      stack[stack.length - 1] = true;
    }
  }
  return null;
}
