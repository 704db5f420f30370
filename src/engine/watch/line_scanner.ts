import { renderPartialLine } from "../output/mod.ts";
import { ByteTail } from "./byte_tail.ts";
import { byteKind, ChunkLines, CONTROLS, erased, NO_LINES, renderLine, renderLines, textKind } from "./chunk_lines.ts";

export { ChunkLines, chunkLines, NO_LINES } from "./chunk_lines.ts";

/**
 * Turns a pane's byte stream into rendered lines as it arrives, a chunk at a time: one streaming
 * TextDecoder (a UTF-8 character split across chunks decodes whole), one decode per chunk, and
 * the complete lines of a chunk come back as one string (each line ends in "\n"), so a matcher
 * tests them all in one call. Plain text, the bulk of any flood, is rendered by a few native
 * string passes over the whole chunk; only chunks with other control characters are rendered
 * line by line. The incomplete last line is kept until its newline arrives (text split across
 * writes still matches) and is offered to matchers as it grows, so prompts without a newline
 * (`Password:`, `>>>`) match. What is reported at the end is rendered from the newest raw bytes,
 * kept in one bounded ring: nothing is kept per line.
 */
export interface ScannerOptions {
  /** Drop everything up to the first newline (the rest of a line being typed: its echo). */
  skipFirstLine?: boolean;
  /** Drop this many lines (the echo of several typed lines); at least one with skipFirstLine. */
  skipLines?: number;
  /** How many rendered lines to report (default 50). */
  keepLines?: number;
  /** Bound on reported text in characters (default 16,000). */
  keepChars?: number;
}

const MAX_PARTIAL = 16_384;
const encoder = new TextEncoder();

export class LineScanner {
  #decoder = new TextDecoder("utf-8");
  #partial = "";
  /** Lines still to skip. */
  #skipping: number;
  /** Bytes were only kept (keep()), so the unfinished line lives in the tail alone. */
  #keptOnly = false;
  readonly #tail: ByteTail;
  readonly #keepLines: number;
  readonly #keepChars: number;

  constructor(options: ScannerOptions = {}) {
    this.#skipping = Math.max(options.skipLines ?? 0, options.skipFirstLine ? 1 : 0);
    this.#keepLines = options.keepLines ?? 50;
    this.#keepChars = options.keepChars ?? 16_000;
    // Raw bytes for the report: room for the kept characters with colour codes around them.
    this.#tail = new ByteTail(Math.max(16_384, this.#keepChars * 4));
  }

  /** Feeds bytes; returns the complete lines they finished. */
  push(bytes: Uint8Array): ChunkLines {
    const rest = this.#skip(bytes);
    if (rest.length === 0) return NO_LINES;
    this.#tail.push(rest);
    const text = this.#decoder.decode(rest, { stream: true });
    const nl = text.lastIndexOf("\n");
    if (nl < 0) {
      this.#partial = boundPartial(this.#partial + text);
      return NO_LINES;
    }
    // What the bytes up to the last newline hold decides how much rendering they need.
    let kind = Math.max(byteKind(rest, rest.lastIndexOf(0x0a) + 1), textKind(this.#partial));
    if (this.#partial.endsWith("\r") && rest[0] !== 0x0a) kind = CONTROLS; // a lone "\r" across chunks
    const region = this.#partial + text.slice(0, nl + 1);
    this.#partial = boundPartial(text.slice(nl + 1));
    return renderLines(region, kind);
  }

  /**
   * Forgets what was scanned so far and skips the next `skipLines` lines again, as if the scan began
   * now (what came before the input's answer, such as an earlier prompt still on its way, is not output).
   * `rest`, the part of the last chunk after that point, is taken again; its lines are not returned.
   */
  restart(skipLines: number, rest: Uint8Array): void {
    this.#tail.clear();
    this.#partial = "";
    this.#decoder = new TextDecoder("utf-8");
    this.#skipping = skipLines;
    if (this.#keptOnly) this.keep(rest);
    else this.push(rest);
  }

  /** Keeps bytes for the report only, decoding nothing (a watch with no text trigger). */
  keep(bytes: Uint8Array): void {
    this.#keptOnly = true;
    this.#tail.push(this.#skip(bytes));
  }

  /** Feeds text (rows read from the screen) as if the pane had written it. */
  pushText(text: string): ChunkLines {
    return this.push(encoder.encode(text));
  }

  /** The incomplete last line, rendered, or null while it is being skipped or empty. */
  get partial(): string | null {
    const raw = this.#unfinished();
    return raw === null ? null : renderLine(raw);
  }

  /** The incomplete line with the blanks before the cursor kept, so a prompt regex like `^>>> $` can match. */
  get partialForMatch(): string | null {
    const raw = this.#unfinished();
    return raw === null ? null : renderPartialLine(raw);
  }

  /** The raw unfinished line, or null while skipping or when there is none. */
  #unfinished(): string | null {
    if (this.#skipping > 0) return null;
    if (!this.#keptOnly) return this.#partial === "" ? null : this.#partial;
    const bytes = this.#tail.bytes();
    const raw = new TextDecoder().decode(bytes.subarray(bytes.lastIndexOf(0x0a) + 1));
    return raw === "" ? null : raw;
  }

  /** The last `n` lines (the incomplete one last, if it shows anything). */
  lastLines(n = this.#keepLines): string[] {
    return this.#report(n, Infinity).lines;
  }

  /** The kept lines, rendered, and whether older lines were dropped to stay in bounds. */
  text(): { text: string; truncated: boolean } {
    const { lines, truncated } = this.#report(this.#keepLines + 1, this.#keepChars);
    return { text: lines.join("\n"), truncated };
  }

  /** Drops the lines still to skip, up to and including their newlines (a newline ends no UTF-8 sequence). */
  #skip(bytes: Uint8Array): Uint8Array {
    let rest = bytes;
    while (this.#skipping > 0) {
      const nl = rest.indexOf(0x0a);
      if (nl < 0) return rest.subarray(rest.length);
      this.#skipping--;
      rest = rest.subarray(nl + 1);
    }
    return rest;
  }

  /** Renders the newest kept bytes into at most `n` lines and `chars` characters. */
  #report(n: number, chars: number): { lines: string[]; truncated: boolean } {
    let raw = new TextDecoder().decode(this.#tail.bytes());
    let truncated = this.#tail.dropped;
    if (truncated) raw = raw.slice(raw.indexOf("\n") + 1); // start on a whole line
    const rows = raw.split("\n");
    const partial = rows.pop()!;
    const lines: string[] = [];
    let size = 0;
    const shown = partial === "" ? "" : renderLine(partial);
    if (shown !== "") {
      lines.push(shown);
      size += shown.length + 1;
    }
    for (let i = rows.length - 1; i >= 0; i--) {
      const line = renderLine(rows[i]);
      if (erased(line, rows[i])) continue;
      if (lines.length >= n || (size + line.length + 1 > chars && lines.length > 0)) {
        truncated = true;
        break;
      }
      lines.push(line);
      size += line.length + 1;
    }
    return { lines: lines.reverse(), truncated };
  }
}

/** A line that never ends (a progress bar redrawn with \r) is cut to its last redraw. */
function boundPartial(partial: string): string {
  if (partial.length <= MAX_PARTIAL) return partial;
  const cr = partial.lastIndexOf("\r");
  return cr > partial.length - MAX_PARTIAL ? partial.slice(cr) : partial.slice(-MAX_PARTIAL);
}
