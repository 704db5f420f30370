/**
 * User-supplied patterns (ready, wait_for_text, pattern:, search_panes, run_in_repl prompt,
 * wait_for), matched in time linear in the text so that no pattern can stall the server.
 *
 * Engine: re2js, a pure-JavaScript port of RE2 (lazy DFA, NFA fallback; no backtracking). It loads
 * with no permission, bundles into the single-file build, and costs ~10 ms to import, so it is
 * imported on the first regex. Measured against native RegExp: see scripts/bench_patterns.ts.
 * re2-wasm was rejected: it reads its .wasm from disk (needs --allow-read) and fails in the bundle.
 */
export { compilePattern, MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE, PatternCompiler } from "./compiler.ts";
export type { PatternLimits, PatternOptions } from "./compiler.ts";
export { PatternError } from "./errors.ts";
export type { LineMatch, Pattern } from "./types.ts";

/** For tool descriptions: what syntax a pattern takes. */
export const PATTERN_SYNTAX_HELP =
  "RE2 regex syntax, as in JavaScript but without lookaround or backreferences; (?i) ignores case; matched in linear time";
