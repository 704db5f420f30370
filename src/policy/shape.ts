import { isKnown, type Word } from "./types.ts";

/** A word after the options are taken out: literal, or built at run time (one word, or any number). */
export type Item = { readonly literal: string } | { readonly many: boolean };

/** A command's arguments as rules compare them: options as a set, the other words in order. */
export interface Shape {
  /** `-r`, `-f` (from `-rf`, `-fr` or `-r -f`) and `--long` or `--long=value`. */
  readonly options: ReadonlySet<string>;
  readonly items: readonly Item[];
}

const SHORT_GROUP = /^-[A-Za-z0-9]+$/;
const LONG = /^--[^=]/;

/** Options are read up to `--`; words built at run time stay items (they might be options). */
export function shapeOf(args: readonly Word[]): Shape {
  const options = new Set<string>();
  const items: Item[] = [];
  let optionsEnded = false;
  for (const word of args) {
    if (!isKnown(word)) {
      items.push({ many: word.many });
      continue;
    }
    const text = word.text;
    if (text === "--") optionsEnded = true;
    if (!optionsEnded && SHORT_GROUP.test(text)) {
      for (const letter of text.slice(1)) options.add(`-${letter}`);
    } else if (!optionsEnded && LONG.test(text)) {
      options.add(text);
    } else {
      items.push({ literal: text });
    }
  }
  return { options, items };
}
