import type { RE2JS } from "re2js";
import { scanLines, scanLinesHolding } from "./lines.ts";
import type { LineMatch, Pattern } from "./types.ts";

/** The re2js module, loaded on the first pattern that needs a regex engine. */
export type Re2Engine = typeof import("re2js");

/** Loads the engine; an `import()` so that literal patterns and start-up never pay for it. */
export function loadRe2(): Promise<Re2Engine> {
  return import("re2js");
}

/** A regex matched by re2js (RE2's automata: time linear in the text, no backtracking). */
export class RegexPattern implements Pattern {
  readonly isRegex = true;
  readonly automaton = true;
  readonly #engine: Re2Engine;
  readonly #re2: string;
  readonly #line: RE2JS;
  /** A string every match contains, or "": lines without it need no test. */
  readonly #needle: string;
  /** The needle rules a text out (not when empty or holding a line break, which lines never do). */
  readonly #needleRulesOut: boolean;
  /** The `(?m)` form that tests a whole chunk at once; null when lines cannot be tested together. */
  #chunk: RE2JS | null | undefined;

  /** `re2` is the translated source; `lineLocal` as in Translation. */
  constructor(readonly source: string, engine: Re2Engine, re2: string, compiled: RE2JS, lineLocal: boolean) {
    this.#engine = engine;
    this.#re2 = re2;
    this.#line = compiled;
    this.#needle = requiredString(compiled);
    this.#needleRulesOut = this.#needle !== "" && !/[\r\n]/.test(this.#needle);
    this.#chunk = lineLocal ? undefined : null;
  }

  test(text: string): boolean {
    return this.#line.test(text);
  }

  match(text: string): string | null {
    // The DFA answers test() fast; locating the match needs a slower engine, so only on a hit.
    if (!this.#line.test(text)) return null;
    const m = this.#line.matcher(text);
    return m.find() ? m.group() : null;
  }

  mayMatchIn(text: string): boolean {
    return !this.#needleRulesOut || text.includes(this.#needle);
  }

  firstMatchingLine(chunk: string): LineMatch | null {
    // Finding the needle with indexOf beats running the automaton over the whole chunk.
    if (this.#needle !== "") return scanLinesHolding(chunk, this.#needle, (line) => this.match(line));
    if (this.#chunk === undefined) this.#chunk = this.#engine.RE2JS.compile(`(?m)${this.#re2}`);
    // A line that matches alone also matches inside the chunk, so a miss here rules out every line.
    if (this.#chunk !== null && !this.#chunk.test(chunk)) return null;
    return scanLines(chunk, (line) => this.match(line));
  }
}

/**
 * The longest string that re2js's prefilter found in every match (its own fast rejection of a
 * text), or "" if none or if the prefilter's shape is not the one known here.
 */
function requiredString(compiled: RE2JS): string {
  // Prefilter types in re2js 2.10: 1 = one exact string, 2 = all of `subs`.
  const prefilter = compiled.re2().prefilter as { type?: unknown; str?: unknown; subs?: unknown } | null;
  const exact = (p: { type?: unknown; str?: unknown } | null) =>
    p !== null && p.type === 1 && typeof p.str === "string" ? p.str : "";
  if (prefilter?.type === 2 && Array.isArray(prefilter.subs)) {
    return prefilter.subs.map(exact).reduce((a, b) => (b.length > a.length ? b : a), "");
  }
  return exact(prefilter);
}
