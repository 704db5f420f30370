/**
 * A pattern the engine rejects. A RangeError, so the server reports it as an invalid argument;
 * the message names the pattern and the reason, never a stack.
 */
export class PatternError extends RangeError {
  override name = "PatternError";
}

const QUOTED_CHARS = 60;

/** The source in double quotes, cut so an over-long pattern does not flood the message. */
export function quotePattern(source: string): string {
  if (source.length <= QUOTED_CHARS) return JSON.stringify(source);
  return JSON.stringify(`${source.slice(0, QUOTED_CHARS)}…`);
}

/** `Invalid <what> "<source>": <reason>` */
export function invalidPattern(what: string, source: string, reason: string): PatternError {
  return new PatternError(`Invalid ${what} ${quotePattern(source)}: ${reason}`);
}
