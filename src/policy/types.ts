/** The three answers a policy gives, strictest last. */
export type Verdict = "allow" | "ask" | "deny";

/** How strict a verdict is: the strictest verdict of a line's commands is the line's verdict. */
export const STRICTNESS: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Stands in a word's text for a part only known at run time (`$X`, `$(…)`, a glob, `~`), so the
 * word can still be compared where it is known (`$DIR/rm` is named `rm`).
 */
export const UNKNOWN = "\u0000";

/** One shell word after unquoting. */
export interface Word {
  /** The value the shell would pass, with UNKNOWN where it is only known at run time. */
  readonly text: string;
  /** The word as written, for messages. */
  readonly raw: string;
  /** An unquoted expansion or glob: it may become no word or several. */
  readonly many: boolean;
  /** Written with no quoting and no expansion (reserved words count only then). */
  readonly plain: boolean;
}

/** A simple command: the words it runs (prefix assignments left out). */
export interface SimpleCommand {
  readonly assignments: readonly Word[];
  readonly words: readonly Word[];
  /** Its input is a pipe or a redirection (a shell reading it runs text the server cannot see). */
  readonly input?: boolean;
}

/** What the judge says of a command line. */
export interface Judgement {
  readonly verdict: Verdict;
  /** The rule that decided (as written in the policy), `default`, or null when the line cannot be judged exactly. */
  readonly rule: string | null;
  /** The simple command that decided, as written. */
  readonly command: string;
  /** Why, in a few words, for the agent and the person asked. */
  readonly reason: string;
  /** The line stops inside a quote, `$(`, `case` …: typed at a prompt, the shell waits for the rest. */
  readonly incomplete?: boolean;
}

/** How a line reaches the shell: typed at an interactive prompt, history expansion (`!!`) applies. */
export interface JudgeOptions {
  readonly interactive?: boolean;
}

export function isKnown(word: Word): boolean {
  return !word.text.includes(UNKNOWN);
}
