import { isKnown, type Word } from "./types.ts";
import { commandName, type OptionSpec, readOptions, runTimeWord } from "./words.ts";

/** What a wrapper runs: a command's words, a command line to parse, or something that cannot be judged. */
export type Inner =
  | { readonly kind: "words"; readonly words: readonly Word[] }
  | { readonly kind: "line"; readonly text: string }
  | { readonly kind: "unclear"; readonly reason: string };

type Unwrapper = (words: readonly Word[]) => Inner[];

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"];

/** The commands a simple command runs in its turn (the command itself is judged too, by the caller). */
export function unwrap(words: readonly Word[], input = false): Inner[] {
  const name = commandName(words[0]);
  if (name === null) return [];
  if (SHELLS.includes(name)) return shellString(words, input);
  return UNWRAPPERS[name]?.(words) ?? [];
}

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
  return [{ kind: "line", text: name.startsWith("PS") ? `: ${value}` : value }];
}

function declaration(words: readonly Word[]): Inner[] {
  return words.slice(1).filter((w) => w.raw.includes("=")).flatMap(assignmentRuns);
}

function unclear(reason: string): Inner[] {
  return [{ kind: "unclear", reason }];
}

/** `name [options] command args…`; `skip` operands before the command (timeout's duration). */
function after(spec: OptionSpec, skip = 0, stop: string[] = []): Unwrapper {
  return (words) => {
    const options = readOptions(words, 1, spec);
    const name = commandName(words[0]);
    if (options === null) return unclear(`${name}'s options are built at run time`);
    if (options.seen.some((o) => stop.includes(o))) return [];
    let i = options.next + skip;
    if (name === "env" || name === "sudo") {
      while (i < words.length && isKnown(words[i]) && /^[^=\-][^=]*=/.test(words[i].text)) i++;
    }
    return i < words.length ? [{ kind: "words", words: words.slice(i) }] : [];
  };
}

/**
 * `sh -c STRING`: the string is a command line. Without -c: a script file (judged as itself), an
 * interactive shell, or (`-s`, or no script, with a pipe or redirection as input) commands read
 * from its input, which the server cannot see (`curl … | sh`).
 */
function shellString(words: readonly Word[], input: boolean): Inner[] {
  let command = false;
  let stdin = false;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i];
    if (!isKnown(word)) return unclear("a shell's options are built at run time");
    const text = word.text;
    if (text === "--" || text === "-") {
      i++;
      break;
    }
    if (text === "--rcfile" || text === "--init-file") i++;
    else if (text === "--command") command = true; // fish
    else if (/^[-+][A-Za-z]+$/.test(text)) {
      if (text[0] === "-" && text.includes("c")) command = true;
      if (text[0] === "-" && text.includes("s")) stdin = true;
      if (/[oO]$/.test(text)) i++;
    } else if (!text.startsWith("--")) break;
  }
  if (!command && input && (stdin || i >= words.length)) {
    return unclear("a shell reading commands from a pipe or redirection runs text the server cannot see");
  }
  if (!command || i >= words.length) return [];
  return lineOf(words[i], "a shell -c string built at run time");
}

function lineOf(word: Word, reason: string): Inner[] {
  return isKnown(word) ? [{ kind: "line", text: word.text }] : unclear(reason);
}

/** `eval a b`: its words joined with spaces, read again as a line. */
function evalWords(words: readonly Word[]): Inner[] {
  const args = words.slice(1);
  if (args.some((w) => !isKnown(w))) return unclear("eval of a string built at run time");
  return args.length ? [{ kind: "line", text: args.map((w) => w.text).join(" ") }] : [];
}

/** xargs runs its command with words read from its input: one more run-time word at the end. */
function xargs(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, {
    short: "adEILnPs",
    long: ["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
  });
  if (options === null) return unclear("xargs' options are built at run time");
  const command = options.next < words.length ? words.slice(options.next) : [runTimeWord("echo", false)];
  return [{ kind: "words", words: [...command, runTimeWord("…", true)] }];
}

/** find's -exec/-execdir/-ok/-okdir run a command up to `;` or `+`, with `{}` filled in. */
function find(words: readonly Word[]): Inner[] {
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
function watch(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, { short: "n", long: ["interval"] });
  if (options === null) return unclear("watch's options are built at run time");
  const rest = words.slice(options.next);
  if (rest.length === 0) return [];
  if (options.seen.includes("x") || options.seen.includes("exec")) return [{ kind: "words", words: rest }];
  if (rest.some((w) => !isKnown(w))) return unclear("watch of a string built at run time");
  return [{ kind: "line", text: rest.map((w) => w.text).join(" ") }];
}

/** `alias name='cmd'`: the alias runs its value later, so it is judged now. */
function alias(words: readonly Word[]): Inner[] {
  return words.slice(1).filter((w) => w.text.includes("=")).flatMap((w) =>
    isKnown(w) ? [{ kind: "line" as const, text: w.text.slice(w.text.indexOf("=") + 1) }] : unclear(
      "an alias built at run time",
    )
  );
}

/** `trap 'cmd' SIGNAL…`: the command runs later. */
function trap(words: readonly Word[]): Inner[] {
  const options = readOptions(words, 1, {});
  if (options === null) return unclear("trap's arguments are built at run time");
  const rest = words.slice(options.next);
  if (rest.length < 2) return [];
  return lineOf(rest[0], "a trap command built at run time");
}

/** `su -c STRING`. */
function su(words: readonly Word[]): Inner[] {
  for (let i = 1; i < words.length; i++) {
    const text = words[i].text;
    if (text.startsWith("--command=")) return lineOf({ ...words[i], text: text.slice(10) }, "su -c built at run time");
    if ((text === "-c" || text === "--command") && i + 1 < words.length) {
      return lineOf(words[i + 1], "su -c built at run time");
    }
  }
  return [];
}

const SUDO_LONG = [
  "user",
  "group",
  "host",
  "prompt",
  "close-from",
  "chdir",
  "role",
  "type",
  "other-user",
  "command-timeout",
  "chroot",
];

const ENV_OPTIONS: OptionSpec = { short: "uCPS", long: ["unset", "chdir", "split-string"] };

const UNWRAPPERS: Record<string, Unwrapper> = {
  eval: evalWords,
  env: (words) =>
    readOptions(words, 1, ENV_OPTIONS)?.seen.some((o) => o === "S" || o.startsWith("split-string"))
      ? unclear("env -S splits a string into a command at run time")
      : after(ENV_OPTIONS)(words),
  sudo: after({ short: "ugpCDrtUTR", long: SUDO_LONG }, 0, ["e", "edit", "l", "list", "v", "V", "K"]),
  doas: after({ short: "Cu" }),
  xargs,
  nohup: after({}),
  time: after({ short: "fo", long: ["format", "output"] }),
  timeout: after({ short: "sk", long: ["signal", "kill-after"] }, 1),
  nice: after({ short: "n", long: ["adjustment"] }),
  exec: after({ short: "a" }),
  command: after({}, 0, ["v", "V"]),
  builtin: after({}),
  setsid: after({}),
  stdbuf: after({ short: "ioe", long: ["input", "output", "error"] }),
  coproc: after({}),
  busybox: after({}),
  find,
  watch,
  alias,
  trap,
  su,
  export: declaration,
  declare: declaration,
  typeset: declaration,
  local: declaration,
  readonly: declaration,
  fc: (words) => words.some((w) => /^-[a-z]*l/.test(w.text)) ? [] : unclear("fc re-runs a line from history"),
};
