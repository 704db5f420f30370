import type { OutputCollector } from "./collector.ts";
import { renderPartialLine, renderTerminalText } from "../output/mod.ts";

/** A compiled caller pattern (src/patterns/: linear time), or anything with the same test. */
export interface LineTest {
  test(line: string): boolean;
}

/** Tests each new line of a process's output (and the line still being written) against a pattern. */
export class LineMatcher {
  #lineStart = 0;

  constructor(private readonly pattern: LineTest) {}

  /** Looks at bytes in [start, end) not yet seen; returns the first matching line, rendered. */
  feed(collector: OutputCollector, start: number, end: number): string | null {
    this.#lineStart = Math.max(this.#lineStart, start);
    const bytes = collector.slice(this.#lineStart, end);
    const lastNl = bytes.lastIndexOf(0x0a);
    const decoder = new TextDecoder();
    if (lastNl >= 0) {
      for (const line of decoder.decode(bytes.subarray(0, lastNl)).split("\n")) {
        const text = renderTerminalText(line);
        if (this.pattern.test(text)) return text;
      }
      this.#lineStart += lastNl + 1;
    }
    // The line still being written (a prompt) keeps the blanks before the cursor: `name? `.
    const partial = renderPartialLine(decoder.decode(bytes.subarray(lastNl + 1)));
    return partial !== "" && this.pattern.test(partial) ? partial : null;
  }
}

/**
 * The last `n` lines of output in [start, end). With `dropPrompt`, an unterminated last line is
 * taken for the shell's new prompt and left out.
 */
export function lastLines(collector: OutputCollector, start: number, end: number, n: number, dropPrompt = false) {
  const bytes = collector.slice(start, end);
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  const lines = renderTerminalText(new TextDecoder().decode(bytes), unterminated).split("\n");
  if (dropPrompt && unterminated) lines.pop();
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  return lines.slice(-n);
}
