import type { WaitPattern } from "./backend.ts";

/**
 * TEMPORARY: compiles `wait_for` with JavaScript's RegExp (flag `m`, as the bridge contract's
 * clients expect: `^`/`$` match at line ends). RegExp backtracks, so a hostile pattern such as
 * `(a+)+$` can take exponential time; this is replaced by the linear-time engine of
 * `src/patterns/` when that lands. Until then the text it runs on is bounded by `lines`.
 */
export function compileWaitFor(source: string): WaitPattern {
  const re = new RegExp(source, "m");
  return { source, test: (text) => re.test(text) };
}
