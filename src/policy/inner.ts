import { isKnown, type Word } from "./types.ts";

/** What a wrapper runs: a command's words, a command line to parse, or something that cannot be judged. */
export type Inner =
  | { readonly kind: "words"; readonly words: readonly Word[] }
  | { readonly kind: "line"; readonly text: string }
  /** A text expanded as in double quotes (a prompt): only its substitutions run. */
  | { readonly kind: "expansions"; readonly text: string }
  | { readonly kind: "unclear"; readonly reason: string };

export function unclear(reason: string): Inner[] {
  return [{ kind: "unclear", reason }];
}

export function lineOf(word: Word, reason: string): Inner[] {
  return isKnown(word) ? [{ kind: "line", text: word.text }] : unclear(reason);
}
