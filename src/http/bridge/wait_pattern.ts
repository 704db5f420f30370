import type { WaitPattern } from "./backend.ts";
import { compilePattern } from "../../patterns/mod.ts";

/**
 * Compiles `wait_for` with the linear-time engine of `src/patterns/` (a backtracking RegExp let a
 * pattern such as `(a+)+$` stall the server). As the bridge contract's clients expect of a
 * multi-line capture, `^` and `$` match at every line's ends: the capture matches when one of
 * its lines does. Rejects with a PatternError (a RangeError) when the engine cannot compile it.
 */
export async function compileWaitFor(source: string): Promise<WaitPattern> {
  const pattern = await compilePattern(source, { what: "wait_for" });
  return { source, test: (text) => pattern.firstMatchingLine(text) !== null };
}
