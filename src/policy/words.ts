import { isKnown, UNKNOWN, type Word } from "./types.ts";

/** A command's name as the policy compares it: its base name (`/bin/rm` is `rm`); null if built at run time. */
export function commandName(word: Word): string | null {
  const base = word.text.slice(word.text.lastIndexOf("/") + 1);
  return base.includes(UNKNOWN) || base === "" ? null : base;
}

/** A word that stands for what a program fills in at run time (xargs' input, find's `{}`). */
export function runTimeWord(raw: string, many: boolean): Word {
  return { text: UNKNOWN, raw, many, plain: false };
}

export interface OptionSpec {
  /** Single-letter options that take a value (`-u root`, `-uroot`). */
  readonly short?: string;
  /** Long options that take a value in the next word unless written `--name=value`. */
  readonly long?: readonly string[];
}

/**
 * Reads a program's options from `from`: the index of its first operand and the letters and long
 * names seen; null when an option word is built at run time (where the operands start is unknown).
 */
export function readOptions(
  words: readonly Word[],
  from: number,
  spec: OptionSpec,
): { next: number; seen: string[] } | null {
  const seen: string[] = [];
  let i = from;
  while (i < words.length) {
    const word = words[i];
    if (!isKnown(word)) return null;
    const text = word.text;
    if (text === "--") return { next: i + 1, seen };
    if (!text.startsWith("-") || text === "-") break;
    if (text.startsWith("--")) {
      const name = text.slice(2).split("=")[0];
      seen.push(name);
      i += !text.includes("=") && spec.long?.includes(name) ? 2 : 1;
      continue;
    }
    let skipNext = false;
    for (let k = 1; k < text.length; k++) {
      seen.push(text[k]);
      if (spec.short?.includes(text[k])) {
        skipNext = k === text.length - 1;
        break;
      }
    }
    i += skipNext ? 2 : 1;
  }
  return { next: i, seen };
}
