import { stripVTControlCharacters } from "node:util";
import { renderPartialLine, renderTerminalText } from "../output/mod.ts";

/**
 * Turns a pane's byte stream into rendered lines as it arrives. One streaming TextDecoder per
 * scanner, so a UTF-8 character split across chunks decodes whole; text split across writes is
 * joined because the incomplete last line is kept until its newline arrives (and is offered to
 * matchers as it grows, so prompts without a newline match too).
 */
export interface ScannerOptions {
  /** Drop everything up to the first newline (the rest of a line being typed: its echo). */
  skipFirstLine?: boolean;
  /** Drop this many lines (the echo of several typed lines); at least one with skipFirstLine. */
  skipLines?: number;
  /** How many rendered lines to keep for reporting (default 50). */
  keepLines?: number;
  /** Bound on kept text in characters (default 64 KiB). */
  keepChars?: number;
}

const MAX_PARTIAL = 16_384;

export class LineScanner {
  readonly #decoder = new TextDecoder("utf-8");
  #partial = "";
  #skipping: number;
  readonly #tail: string[] = [];
  #tailChars = 0;
  /** Complete lines seen (after the skipped one). */
  lineCount = 0;
  /** Lines dropped from the kept tail. */
  droppedLines = 0;
  readonly #keepLines: number;
  readonly #keepChars: number;

  constructor(options: ScannerOptions = {}) {
    this.#skipping = Math.max(options.skipLines ?? 0, options.skipFirstLine ? 1 : 0);
    this.#keepLines = options.keepLines ?? 50;
    this.#keepChars = options.keepChars ?? 65_536;
  }

  /** Feeds bytes; returns the complete lines they finished, rendered. */
  push(bytes: Uint8Array): string[] {
    return this.pushText(this.#decoder.decode(bytes, { stream: true }));
  }

  pushText(text: string): string[] {
    const done: string[] = [];
    let start = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
      const raw = this.#partial + text.slice(start, i);
      this.#partial = "";
      start = i + 1;
      if (this.#skipping > 0) {
        this.#skipping--;
        continue;
      }
      const line = render(raw);
      // Drawn and then erased (node's REPL preview, a cleared progress line): nothing a person sees.
      if (line === "" && stripVTControlCharacters(raw).trim() !== "") continue;
      done.push(line);
      this.#tail.push(line);
      this.#tailChars += line.length + 1;
    }
    this.lineCount += done.length;
    this.#trim();
    this.#partial = boundPartial(this.#partial + text.slice(start));
    return done;
  }

  /** The incomplete last line, rendered, or null while it is being skipped or empty. */
  get partial(): string | null {
    if (this.#skipping > 0 || this.#partial === "") return null;
    return render(this.#partial);
  }

  /** The incomplete line with the blanks before the cursor kept, so a prompt regex like `^>>> $` can match. */
  get partialForMatch(): string | null {
    if (this.#skipping > 0 || this.#partial === "") return null;
    return renderPartialLine(this.#partial);
  }

  /** The last kept lines plus the incomplete one. */
  lastLines(n = this.#keepLines): string[] {
    const lines = this.#tail.slice(-n);
    const partial = this.partial;
    if (partial !== null && partial !== "") {
      lines.push(partial);
      if (lines.length > n) lines.shift();
    }
    return lines;
  }

  /** Everything kept, rendered, and whether older lines were dropped to stay in bounds. */
  text(): { text: string; truncated: boolean } {
    return { text: this.lastLines(this.#keepLines + 1).join("\n"), truncated: this.droppedLines > 0 };
  }

  /** Drops the oldest kept lines beyond the bounds, once per chunk (shift per line is O(n²) on bursts). */
  #trim(): void {
    let drop = Math.max(0, this.#tail.length - this.#keepLines);
    for (let i = 0; i < drop; i++) this.#tailChars -= this.#tail[i].length + 1;
    while (this.#tailChars > this.#keepChars && this.#tail.length - drop > 1) {
      this.#tailChars -= this.#tail[drop++].length + 1;
    }
    if (drop > 0) {
      this.#tail.splice(0, drop);
      this.droppedLines += drop;
    }
  }
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

/** Plain text (the bulk of most output) needs no terminal rendering: a fast path for chatty panes. */
function render(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw; // the tty's CR of "\r\n" changes nothing visible
  return CONTROL.test(line) ? renderTerminalText(line) : line.trimEnd();
}

/** A line that never ends (a progress bar redrawn with \r) is cut to its last redraw. */
function boundPartial(partial: string): string {
  if (partial.length <= MAX_PARTIAL) return partial;
  const cr = partial.lastIndexOf("\r");
  const cut = cr > partial.length - MAX_PARTIAL ? partial.slice(cr) : partial.slice(-MAX_PARTIAL);
  return cut;
}
