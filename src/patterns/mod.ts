/**
 * User-supplied patterns (ready, wait_for_text, pattern:, search_panes, run_in_repl prompt,
 * wait_for), matched in time linear in the text so that no pattern can stall the server.
 *
 * Engine: re2js 2.10, a pure-JavaScript port of RE2 (lazy DFA, NFA fallback, no backtracking). It
 * loads with no permission and bundles into the single-file build; loading it and compiling the
 * first regex adds ~20 ms to a `deno run`, so it is imported on the first regex, never at start.
 * Per short line (scripts/bench_patterns.ts): `listening on port \d+` 33 ns vs RegExp 19 ns;
 * literals, `^>>> $` and `(?i)error` skip the engine (8-22 ns); firstMatchingLine on a chunk
 * ~1.5 ns per line. re2-wasm was rejected: it reads its .wasm from disk (needs --allow-read)
 * and fails in the bundle (`__dirname is not defined`).
 */
export { compilePattern, MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE, PatternCompiler } from "./compiler.ts";
export type { PatternLimits, PatternOptions } from "./compiler.ts";
export { PatternError } from "./errors.ts";
export type { LineMatch, Pattern } from "./types.ts";

/** For tool descriptions: what syntax a pattern takes. */
export const PATTERN_SYNTAX_HELP =
  "RE2 regex syntax, as in JavaScript but without lookaround or backreferences; (?i) ignores case; matched in linear time";
