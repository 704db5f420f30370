import type { PatternCompiler } from "../../patterns/mod.ts";
import type { WaitPattern } from "./backend.ts";

/**
 * Compiles `wait_for` with the linear-time pattern engine. The bridge tests it against captured
 * output, several lines at once, and clients expect `^`/`$` to match at line ends (JavaScript's
 * `m` flag): so a capture matches when one of its lines does.
 */
export async function compileWaitFor(patterns: PatternCompiler, source: string): Promise<WaitPattern> {
  const pattern = await patterns.compile(source, { what: "wait_for" });
  return { source, test: (text) => pattern.firstMatchingLine(text) !== null };
}
