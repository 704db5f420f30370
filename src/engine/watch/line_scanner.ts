import { stripVTControlCharacters } from "node:util";
import { renderTerminalText } from "../output/mod.ts";
import { ByteTail } from "./byte_tail.ts";

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
  /** How many rendered lines to report (default 50). */
  keepLines?: number;
  /** Bound on reported text in characters (default 16,000). */
  keepChars?: number;
}

const MAX_PARTIAL = 16_384;
const encoder = new TextEncoder();

/**
 * The complete lines a chunk finished, rendered, "\n" after each ("" when none). For speed the
 * scanner may hand over plain text as the pane wrote it (`rawText`: the tty's "\r" before each
 * "\n", blanks at line ends), since removing those costs more than anything else done per line;
 * `text` is the exact rendering, made on first use. A matcher first asks a pattern whether
 * `rawText` can match at all (Pattern.mayMatchIn: rendering only removes characters at line
 * ends), which a flood that never matches answers with one native search.
 */
export class ChunkLines {
  #text: string | null;

  constructor(readonly rawText: string, raw = false) {
    this.#text = raw ? null : rawText;
  }

  get text(): string {
    if (this.#text !== null) return this.#text;
    let text = this.rawText.includes("\r") ? this.rawText.replace(/\r\n/g, "\n") : this.rawText;
    if (TRAILING_BLANKS.test(text)) text = text.replace(TRAILING_BLANKS_ALL, "\n");
    return this.#text = text;
  }

  /** These lines and then `partial` (an unfinished line, already rendered) as one more line. */
  withPartial(partial: string | null): ChunkLines {
    if (partial === null || partial === "") return this;
    const joined = new ChunkLines(this.rawText + partial, this.#text === null);
    if (this.#text !== null) joined.#text = this.#text + partial;
    return joined;
  }
}

const TRAILING_BLANKS = /[^\S\n]\n/;
const TRAILING_BLANKS_ALL = /[^\S\n]+\n/g;

/** No complete line. */
export const NO_LINES = new ChunkLines("");

export class LineScanner {
  readonly #decoder = new TextDecoder("utf-8");
  #partial = "";
  #skipping: boolean;
  readonly #tail: ByteTail;
  readonly #keepLines: number;
  readonly #keepChars: number;

  constructor(options: ScannerOptions = {}) {
    this.#skipping = options.skipFirstLine ?? false;
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

  /** Keeps bytes for the report only, decoding nothing (a watch with no text trigger). */
  keep(bytes: Uint8Array): void {
    this.#tail.push(this.#skip(bytes));
  }

  /** Feeds text (rows read from the screen) as if the pane had written it. */
  pushText(text: string): ChunkLines {
    return this.push(encoder.encode(text));
  }

  /** The incomplete last line, rendered, or null while it is being skipped or empty. */
  get partial(): string | null {
    if (this.#skipping || this.#partial === "") return null;
    return renderLine(this.#partial);
  }

  /** The incomplete line with its trailing blanks kept, so a prompt regex like `>>> ` can match. */
  get partialForMatch(): string | null {
    const rendered = this.partial;
    if (rendered === null) return null;
    const tail = /[ \t]*$/.exec(stripVTControlCharacters(this.#partial.slice(this.#partial.lastIndexOf("\r") + 1)));
    return rendered + (tail?.[0] ?? "");
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

  /** Drops bytes up to and including the first newline while skipping (a newline ends no UTF-8 sequence). */
  #skip(bytes: Uint8Array): Uint8Array {
    if (!this.#skipping) return bytes;
    const nl = bytes.indexOf(0x0a);
    if (nl < 0) return bytes.subarray(bytes.length);
    this.#skipping = false;
    return bytes.subarray(nl + 1);
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

/** The complete lines of a chunk as an array (for consumers of few lines, such as REPL turns). */
export function chunkLines(lines: ChunkLines): string[] {
  const text = lines.text;
  return text === "" ? [] : text.slice(0, -1).split("\n");
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
// Escape sequences the renderer drops without any effect on the line: CSI sequences other than
// cursor moves and erases (C, D, G, K), such as colours, and OSC strings (titles) ended by BEL or ST.
// deno-lint-ignore no-control-regex
const INERT_ESCAPES = /\x1b\[[^\x40-\x7e\n]*[\x40-\x42\x45\x46\x48-\x4a\x4c-\x7e]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)/g;
// A control character other than ESC, BEL (they may belong to inert escapes) and the tty's "\r"
// before "\n" (or at the end of an unfinished line, where the next chunk may bring the "\n").
// deno-lint-ignore no-control-regex
const OTHER_CONTROL = /[\x00-\x06\x08\x09\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]|\r(?!\n|$)/;

/** Plain text: no control character but "\n" and a "\r" right before one. */
const PLAIN = 0;
/** Also holds ESC or BEL: plain once inert escapes are dropped, if none is left. */
const ESCAPES = 1;
/** Needs the terminal renderer (other control characters, a lone "\r"). */
const CONTROLS = 2;

/** The kind of `bytes[0, end)`: one pass in a tight loop (~1 ns a byte; a regex takes ~3). */
function byteKind(bytes: Uint8Array, end: number): number {
  let kind = PLAIN;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b >= 0x20) {
      if (b === 0x7f) return CONTROLS;
    } else if (b === 0x1b || b === 0x07) {
      kind = ESCAPES;
    } else if (b !== 0x0a && (b !== 0x0d || bytes[i + 1] !== 0x0a)) {
      return CONTROLS;
    }
  }
  return kind;
}

/** The kind of an unfinished line carried over (a final "\r" is judged with the next chunk). */
function textKind(text: string): number {
  if (text === "") return PLAIN;
  if (OTHER_CONTROL.test(text)) return CONTROLS;
  return text.includes("\x1b") || text.includes("\x07") ? ESCAPES : PLAIN;
}

/**
 * Renders a run of complete lines ("\n" after each) as renderLine would render each one, with
 * lines that were drawn and then erased left out. Plain text (after dropping colours) needs no
 * rendering but at line ends (see ChunkLines): nothing is done per line. Otherwise each line is
 * rendered alone (its inert escapes dropped first, which changes nothing but the renderer's work).
 */
function renderLines(region: string, kind: number): ChunkLines {
  if (kind === PLAIN) return new ChunkLines(region, true);
  const plain = region.includes("\x1b") ? region.replace(INERT_ESCAPES, "") : region;
  if (kind === ESCAPES && !plain.includes("\x1b") && !plain.includes("\x07")) return new ChunkLines(plain, true);
  let out = "";
  let start = 0;
  for (let i = region.indexOf("\n"); i !== -1; i = region.indexOf("\n", start)) {
    const raw = region.slice(start, i);
    start = i + 1;
    const line = renderLine(raw.includes("\x1b") ? raw.replace(INERT_ESCAPES, "") : raw);
    if (!erased(line, raw)) out += line + "\n";
  }
  return new ChunkLines(out);
}

/** Drawn and then erased (node's REPL preview, a cleared progress line): nothing a person sees. */
function erased(line: string, raw: string): boolean {
  return line === "" && raw !== "" && stripVTControlCharacters(raw).trim() !== "";
}

/** One line as a person reads it: plain text needs no terminal rendering. */
function renderLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw; // the tty's CR of "\r\n" changes nothing visible
  return CONTROL.test(line) ? renderTerminalText(line) : line.trimEnd();
}

/** A line that never ends (a progress bar redrawn with \r) is cut to its last redraw. */
function boundPartial(partial: string): string {
  if (partial.length <= MAX_PARTIAL) return partial;
  const cr = partial.lastIndexOf("\r");
  return cr > partial.length - MAX_PARTIAL ? partial.slice(cr) : partial.slice(-MAX_PARTIAL);
}
