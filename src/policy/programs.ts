import { isKnown, type Word } from "./types.ts";
import { readOptions, runTimeWord } from "./words.ts";
import { type Inner, lineOf, unclear } from "./inner.ts";

// Programs that run commands in their own ways: xargs, find -exec, watch, alias, trap, su, declarations.

/** Variables whose value runs later: PROMPT_COMMAND and prompts (`$(…)` in PS1) at each prompt; others load code. */
const PROMPT_CODE = /^(PROMPT_COMMAND|PS[0-4])(\[[^\]]*\])?\+?=/;
const CODE_VARIABLES = /^(BASH_ENV|ENV|ZDOTDIR|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT)(\+?=)/;

/** What a `NAME=VALUE` word (an assignment, or an argument of export/declare/local …) runs later. */
export function assignmentRuns(word: Word): Inner[] {
  const name = /^[^=]*/.exec(word.raw)![0];
  if (CODE_VARIABLES.test(word.raw)) return unclear(`${name} makes programs load code the server cannot see`);
  if (!PROMPT_CODE.test(word.raw)) return [];
  if (!isKnown(word)) return unclear(`${name} set to a value built at run time`);
  const value = word.text.slice(word.text.indexOf("=") + 1);
  // PROMPT_COMMAND is a command line; a prompt's `$(…)` and backquotes run as it is drawn.
  return [name.startsWith("PS") ? { kind: "expansions", text: value } : { kind: "line", text: value }];
}

export function declaration(words: readonly Word[]): Inner[] {
  return words.slice(1).filter((w) => w.raw.includes("=")).flatMap(assignmentRuns);
}

/** xargs runs its command with words read from its input: one more run-time word at the end. */
export function xargs(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, {
    short: "adEILnPs",
    long: ["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
  });
  if (options === null) return unclear("xargs' options are built at run time");
  const command = options.next < words.length ? words.slice(options.next) : [runTimeWord("echo", false)];
  return [{ kind: "words", words: [...command, runTimeWord("…", true)] }];
}

/** find's -exec/-execdir/-ok/-okdir run a command up to `;` or `+`, with `{}` filled in. */
export function find(words: readonly Word[]): Inner[] {
  const inners: Inner[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!isKnown(words[i])) {
      if (words[i].many || words.slice(i).some((w) => w.text === ";" || w.text === "+")) {
        return unclear("find's arguments are built at run time");
      }
      continue;
    }
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i].text)) continue;
    const command: Word[] = [];
    for (i++; i < words.length && words[i].text !== ";" && words[i].text !== "+"; i++) {
      command.push(words[i].text.includes("{}") ? runTimeWord(words[i].raw, false) : words[i]);
    }
    if (command.length) inners.push({ kind: "words", words: command });
  }
  return inners;
}

/** watch runs its words through `sh -c` (joined), or as they are with -x. */
export function watch(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, { short: "n", long: ["interval"] });
  if (options === null) return unclear("watch's options are built at run time");
  const rest = words.slice(options.next);
  if (rest.length === 0) return [];
  if (options.seen.includes("x") || options.seen.includes("exec")) return [{ kind: "words", words: rest }];
  if (rest.some((w) => !isKnown(w))) return unclear("watch of a string built at run time");
  return [{ kind: "line", text: rest.map((w) => w.text).join(" ") }];
}

/** `alias name='cmd'`: the alias runs its value later, so it is judged now. */
export function alias(words: readonly Word[]): Inner[] {
  return words.slice(1).filter((w) => w.text.includes("=")).flatMap((w) =>
    isKnown(w) ? [{ kind: "line" as const, text: w.text.slice(w.text.indexOf("=") + 1) }] : unclear(
      "an alias built at run time",
    )
  );
}

/** `trap 'cmd' SIGNAL…`: the command runs later. */
export function trap(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, {});
  if (options === null) return unclear("trap's arguments are built at run time");
  const rest = words.slice(options.next);
  if (rest.length < 2) return [];
  return lineOf(rest[0], "a trap command built at run time");
}
