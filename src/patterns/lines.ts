import type { LineMatch } from "./types.ts";

/** Offset of the first character of the line holding `at`. */
export function lineStart(chunk: string, at: number): number {
  return at === 0 ? 0 : chunk.lastIndexOf("\n", at - 1) + 1;
}

/** Offset of the `\n` ending the line holding `at`, or the chunk's length. */
export function lineEnd(chunk: string, at: number): number {
  const end = chunk.indexOf("\n", at);
  return end < 0 ? chunk.length : end;
}

/** True when `at` lies on a line: not past a final `\n`, and the chunk is not empty. */
export function onLine(chunk: string, at: number): boolean {
  return at < chunk.length || (at > 0 && chunk.charCodeAt(at - 1) !== 10);
}

/** The line around a match found at [at, end) of the chunk. */
export function lineMatchAt(chunk: string, at: number, end: number): LineMatch {
  const start = lineStart(chunk, at);
  return { line: chunk.slice(start, lineEnd(chunk, at)), match: chunk.slice(at, end), index: start };
}

/** Gives each line to `match` in turn; the first line it matches. */
export function scanLines(chunk: string, match: (line: string) => string | null): LineMatch | null {
  let start = 0;
  while (start < chunk.length) {
    const end = lineEnd(chunk, start);
    const line = chunk.slice(start, end);
    const found = match(line);
    if (found !== null) return { line, match: found, index: start };
    start = end + 1;
  }
  return null;
}

/**
 * Gives `match` only the lines holding `needle`, a string every match contains: one indexOf
 * pass over the chunk, each line looked at once.
 */
export function scanLinesHolding(
  chunk: string,
  needle: string,
  match: (line: string) => string | null,
): LineMatch | null {
  if (needle.includes("\n")) return null; // a line holds no newline
  let from = 0;
  for (;;) {
    const at = chunk.indexOf(needle, from);
    if (at < 0) return null;
    const start = lineStart(chunk, at);
    const end = lineEnd(chunk, at + needle.length);
    const line = chunk.slice(start, end);
    const found = match(line);
    if (found !== null) return { line, match: found, index: start };
    from = end + 1;
  }
}
