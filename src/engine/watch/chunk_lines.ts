import { stripVTControlCharacters } from "node:util";
import { renderTerminalText } from "../output/mod.ts";

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
export const CONTROLS = 2;

/** The kind of `bytes[0, end)`: one pass in a tight loop (~1 ns a byte; a regex takes ~3). */
export function byteKind(bytes: Uint8Array, end: number): number {
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
export function textKind(text: string): number {
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
export function renderLines(region: string, kind: number): ChunkLines {
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
export function erased(line: string, raw: string): boolean {
  return line === "" && raw !== "" && stripVTControlCharacters(raw).trim() !== "";
}

/** One line as a person reads it: plain text needs no terminal rendering. */
export function renderLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw; // the tty's CR of "\r\n" changes nothing visible
  return CONTROL.test(line) ? renderTerminalText(line) : line.trimEnd();
}
