import { invalidPattern, PatternError } from "./errors.ts";
import { literalOf, LiteralPattern } from "./literal.ts";
import { loadRe2, type Re2Engine, RegexPattern } from "./regex.ts";
import { translate, UnsupportedSyntax } from "./translate.ts";
import type { Pattern } from "./types.ts";

export interface PatternOptions {
  /** Regex (default) or, with false, a literal substring. */
  regex?: boolean;
  /** Match letters in any case (the same as a leading `(?i)`). */
  ignoreCase?: boolean;
  /** Names the pattern in errors: `Invalid <what> "…": …`. Default "regex", or "pattern" for a literal. */
  what?: string;
}

export interface PatternLimits {
  /** Longest source accepted, in UTF-16 units. Default 10,000. */
  maxLength?: number;
  /**
   * Most RE2 instructions a regex may compile to. Matching is linear in the text, but once the
   * DFA gives up the cost per character grows with the program. One adversarial 4,096-character
   * line (the longest a wait or search matches; scripts/bench_patterns.ts): up to ~50 ms at 490
   * instructions, where the DFA still copes with test(); 120-180 ms at 730 and 200-250 ms at 1,010,
   * where it gives up. Default 500.
   */
  maxProgramSize?: number;
  /** Loads the regex engine; defaults to importing re2js. */
  loadEngine?: () => Promise<Re2Engine>;
}

export const MAX_PATTERN_LENGTH = 10_000;
export const MAX_PROGRAM_SIZE = 500;

/**
 * Compiles patterns. Construct one at start-up: it loads the regex engine on the first regex
 * that needs it (never for a literal) and keeps it for later ones.
 */
export class PatternCompiler {
  readonly maxLength: number;
  readonly maxProgramSize: number;
  readonly #load: () => Promise<Re2Engine>;
  #engine: Promise<Re2Engine> | undefined;

  constructor(limits: PatternLimits = {}) {
    this.maxLength = limits.maxLength ?? MAX_PATTERN_LENGTH;
    this.maxProgramSize = limits.maxProgramSize ?? MAX_PROGRAM_SIZE;
    this.#load = limits.loadEngine ?? loadRe2;
  }

  /** Compiles `source`; rejects with a PatternError when it is empty, too long or invalid. */
  async compile(source: string, options: PatternOptions = {}): Promise<Pattern> {
    const regex = options.regex ?? true;
    const ignoreCase = options.ignoreCase ?? false;
    const what = options.what ?? (regex ? "regex" : "pattern");
    if (source.length === 0) throw new PatternError(`Invalid ${what}: empty`);
    if (source.length > this.maxLength) {
      throw invalidPattern(what, source, `${source.length} characters, limit ${this.maxLength}`);
    }
    if (!regex) return new LiteralPattern(source, false, { text: source, atStart: false, atEnd: false, ignoreCase });
    const literal = literalOf(source, ignoreCase);
    if (literal) return new LiteralPattern(source, true, literal);

    let re2: string;
    let lineLocal: boolean;
    try {
      ({ re2, lineLocal } = translate(source));
    } catch (error) {
      if (error instanceof UnsupportedSyntax) throw invalidPattern(what, source, error.message);
      throw error;
    }
    if (ignoreCase) re2 = `(?i)${re2}`;
    const engine = await this.#loadEngine();
    let compiled;
    try {
      compiled = engine.RE2JS.compile(re2);
    } catch (error) {
      throw invalidPattern(what, source, syntaxReason(error, source));
    }
    const size = compiled.programSize();
    if (size > this.maxProgramSize) {
      throw invalidPattern(
        what,
        source,
        `too complex (${size} instructions, limit ${this.maxProgramSize}); use smaller repeat counts or fewer alternatives`,
      );
    }
    return new RegexPattern(source, engine, re2, compiled, lineLocal);
  }

  #loadEngine(): Promise<Re2Engine> {
    this.#engine ??= this.#load().catch((error) => {
      this.#engine = undefined; // let a later pattern try again
      throw error;
    });
    return this.#engine;
  }
}

/** Compiles one pattern with default limits; an application should keep one PatternCompiler. */
export function compilePattern(source: string, options?: PatternOptions): Promise<Pattern> {
  return new PatternCompiler().compile(source, options);
}

/**
 * RE2's reason, e.g. `missing closing )` or `invalid escape sequence "\e"`. The offending part
 * is quoted only when it appears in the source: RE2 saw the translated pattern.
 */
function syntaxReason(error: unknown, source: string): string {
  const { error: reason, input } = error as { error?: unknown; input?: unknown };
  if (typeof reason !== "string") return error instanceof Error ? error.message : String(error);
  const wholePattern = /^(?:missing closing \)|unexpected \))$/.test(reason);
  if (typeof input === "string" && !wholePattern && source.includes(input)) {
    return `${reason} ${JSON.stringify(input)}`;
  }
  return reason;
}
