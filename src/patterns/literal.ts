import { lineMatchAt, onLine } from "./lines.ts";
import type { LineMatch, Pattern } from "./types.ts";

/** A pattern that is a fixed string, optionally tied to the start and/or end of the text. */
export interface Literal {
  text: string;
  atStart: boolean;
  atEnd: boolean;
  ignoreCase: boolean;
}

const META = new Set("\\^$.|?*+()[]{}");

/**
 * The literal a regex source stands for, or null: an optional leading `(?i)` and `^`, then
 * plain characters or escaped punctuation, then an optional `$`. Such a regex is matched with
 * string search instead of the regex engine.
 */
export function literalOf(source: string, ignoreCase: boolean): Literal | null {
  let i = 0;
  if (source.startsWith("(?i)")) {
    ignoreCase = true;
    i = 4;
  }
  const atStart = source[i] === "^";
  if (atStart) i++;
  let text = "";
  let atEnd = false;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") {
      const next = source.codePointAt(i + 1);
      if (next === undefined || (next < 0x80 && /[0-9A-Za-z]/.test(source[i + 1]))) return null;
      const escaped = String.fromCodePoint(next);
      text += escaped;
      i += 1 + escaped.length;
    } else if (c === "$" && i === source.length - 1) {
      atEnd = true;
      i++;
    } else if (META.has(c)) {
      return null;
    } else {
      text += c;
      i++;
    }
  }
  return { text, atStart, atEnd, ignoreCase };
}

/** Matches a Literal with string search, or for ignoreCase with a native regex that holds no quantifier. */
export class LiteralPattern implements Pattern {
  readonly #lit: Literal;
  /** Case-insensitive literals: `test`/`match` form (anchored as the literal is) and chunk-search form. */
  readonly #folded: RegExp | null;
  readonly #foldedSearch: RegExp | null;

  constructor(readonly source: string, readonly isRegex: boolean, lit: Literal) {
    // Folding is needed only if a letter or a non-ASCII character may have other cases.
    const folds = lit.ignoreCase && /[A-Za-z\u0080-\uffff]/.test(lit.text);
    this.#lit = { ...lit, ignoreCase: folds };
    const body = lit.text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    // Linear: no quantifier or alternation, only a fixed run of case-folded characters.
    this.#folded = folds ? new RegExp(`${lit.atStart ? "^" : ""}${body}${lit.atEnd ? "$" : ""}`, "iu") : null;
    this.#foldedSearch = folds ? new RegExp(body, "giu") : null;
  }

  test(text: string): boolean {
    if (this.#folded) return this.#folded.test(text);
    const { text: lit, atStart, atEnd } = this.#lit;
    if (atStart) return atEnd ? text === lit : text.startsWith(lit);
    return atEnd ? text.endsWith(lit) : text.includes(lit);
  }

  match(text: string): string | null {
    if (this.#folded) return this.#folded.exec(text)?.[0] ?? null;
    return this.test(text) ? this.#lit.text : null;
  }

  firstMatchingLine(chunk: string): LineMatch | null {
    const { text: lit, atStart, atEnd } = this.#lit;
    if (lit.includes("\n")) return null; // a line holds no newline
    let from = 0;
    while (from <= chunk.length) {
      let at: number;
      let end: number;
      if (this.#foldedSearch) {
        this.#foldedSearch.lastIndex = from;
        const found = this.#foldedSearch.exec(chunk);
        if (!found) return null;
        at = found.index;
        end = at + found[0].length;
      } else {
        at = chunk.indexOf(lit, from);
        if (at < 0) return null;
        end = at + lit.length;
      }
      const startsLine = at === 0 || chunk.charCodeAt(at - 1) === 10;
      const endsLine = end === chunk.length || chunk.charCodeAt(end) === 10;
      if ((!atStart || startsLine) && (!atEnd || endsLine)) {
        return onLine(chunk, at) ? lineMatchAt(chunk, at, end) : null;
      }
      if (atStart) {
        // Only a line's start can match: skip to the next line.
        const newline = chunk.indexOf("\n", at);
        if (newline < 0) return null;
        from = newline + 1;
      } else {
        from = at + 1;
      }
    }
    return null;
  }
}
