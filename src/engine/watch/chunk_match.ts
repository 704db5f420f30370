import type { LineMatch } from "../../patterns/mod.ts";
import type { ChunkLines } from "./line_scanner.ts";

/** What an output trigger tests text with: a compiled pattern, or the fixed error regex. */
export interface ChunkTest {
  /** The first `\n`-separated line of `chunk` that matches (see Pattern.firstMatchingLine). */
  firstMatchingLine(chunk: string): LineMatch | null;
  /** False only when no line of `text` can match, with `\n` or `\r\n` line ends (Pattern.mayMatchIn). */
  mayMatchIn(text: string): boolean;
  /** Matched by an automaton whose cost per character grows with the pattern (RE2). */
  readonly automaton?: boolean;
}

/** Lines are matched by an automaton on their first 4,096 characters (as search_panes does). */
export const MAX_MATCH_LINE_CHARS = 4096;
/** Synchronous matching per turn of the event loop; past it, the rest waits for other callers. */
export const MATCH_BUDGET_MS = 10;
// The first slice of a chunk: one line or so when an automaton test may be costly (its speed is
// unknown until measured), more for string search.
const FIRST_SLICE_CHARS = { automaton: 2048, search: 64 * 1024 };
const MAX_SLICE_CHARS = 1024 * 1024;

export interface FoundLine {
  /** Index of the test that matched. */
  test: number;
  line: string;
  match: string;
}

/**
 * The first line of `lines` that one of `tests` matches (within a slice of lines, the tests in
 * order). The work goes in slices of whole lines sized from the speed measured so far; once
 * MATCH_BUDGET_MS of work has run without a pause, the next slice waits for the event loop, so a
 * costly pattern on a flood of output delays only its own wait, never another caller. Lines
 * and their order are never skipped.
 */
export function firstMatch(
  all: readonly ChunkTest[],
  lines: ChunkLines,
): FoundLine | null | Promise<FoundLine | null> {
  // A flood that never matches is ruled out by one native search per test, on the raw lines, at
  // once: no promise, so a chunk that cannot match costs its caller nothing more.
  if (lines.rawText.length === 0) return null;
  const order = all.flatMap((test, i) => test.mayMatchIn(lines.rawText) ? [i] : []);
  return order.length === 0 ? null : matchSlices(all, order, lines.text);
}

async function matchSlices(all: readonly ChunkTest[], order: number[], text: string): Promise<FoundLine | null> {
  const tests = order.map((i) => all[i]);
  let from = 0;
  let sliceChars = tests.some((t) => t.automaton) ? FIRST_SLICE_CHARS.automaton : FIRST_SLICE_CHARS.search;
  let since = performance.now();
  while (from < text.length) {
    const to = sliceEnd(text, from, sliceChars);
    const started = performance.now();
    const found = matchSlice(tests, text.slice(from, to));
    if (found) return { ...found, test: order[found.test] };
    const now = performance.now();
    const ms = now - started;
    // Size the next slice to take about a quarter of the budget at the speed just seen.
    sliceChars = ms <= 0 ? MAX_SLICE_CHARS : clamp(((to - from) / ms) * (MATCH_BUDGET_MS / 4), 1024, MAX_SLICE_CHARS);
    from = to;
    if (now - since >= MATCH_BUDGET_MS && from < text.length) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      since = performance.now();
    }
  }
  return null;
}

/** Runs each test on one slice; automaton tests see long lines cut to MAX_MATCH_LINE_CHARS. */
function matchSlice(tests: readonly ChunkTest[], slice: string): FoundLine | null {
  let capped: string | undefined;
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i];
    const found = test.firstMatchingLine(test.automaton ? capped ??= capLines(slice) : slice);
    if (found) return { test: i, line: found.line, match: found.match };
  }
  return null;
}

/** The end of a slice: after the newline that ends the line holding `from + chars`, or the text's end. */
function sliceEnd(text: string, from: number, chars: number): number {
  if (from + chars >= text.length) return text.length;
  const nl = text.indexOf("\n", from + chars - 1);
  return nl < 0 ? text.length : nl + 1;
}

/**
 * `text` with every line longer than MAX_MATCH_LINE_CHARS cut to that length. Looks at one
 * window of that many characters at a time, so text of short lines costs a few native searches.
 */
export function capLines(text: string, max = MAX_MATCH_LINE_CHARS): string {
  if (text.length <= max) return text;
  let parts: string[] | null = null;
  let kept = 0; // text[kept..] not yet copied into parts
  let at = 0; // start of a line
  while (text.length - at > max) {
    const nl = text.lastIndexOf("\n", at + max);
    if (nl >= at) {
      at = nl + 1; // every line in [at, nl] is at most max long
      continue;
    }
    // The line at `at` is longer than max: keep its first max characters.
    const end = text.indexOf("\n", at + max);
    (parts ??= []).push(text.slice(kept, at + max));
    kept = end < 0 ? text.length : end;
    at = end < 0 ? text.length : end + 1;
  }
  if (parts === null) return text;
  parts.push(text.slice(kept));
  return parts.join("");
}

function clamp(x: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, Math.floor(x)));
}
