/** The first line of a chunk that a pattern matches. */
export interface LineMatch {
  /** The whole line, without its `\n`. */
  line: string;
  /** The substring of the line that matched (may be empty, e.g. for `^`). */
  match: string;
  /** Offset of the line's first character in the chunk. */
  index: number;
}

/** A compiled pattern; every method runs in time linear in the text. */
export interface Pattern {
  /** The source as the caller gave it. */
  readonly source: string;
  /** False for a literal substring (`regex: false`). */
  readonly isRegex: boolean;
  /** True when the pattern matches somewhere in `text` (`^`/`$` at its ends). */
  test(text: string): boolean;
  /** The leftmost match in `text` (JavaScript's leftmost-first choice), or null. */
  match(text: string): string | null;
  /**
   * The first of a chunk's `\n`-separated lines that matches, as if each line were given to
   * match() alone (`^`/`$` at the line's ends). A final `\n` ends the last line; it does not
   * start an empty one, and an empty chunk has no line. Allocates nothing while no line matches
   * a regex that passes a whole-chunk test, or a literal.
   */
  firstMatchingLine(chunk: string): LineMatch | null;
}
