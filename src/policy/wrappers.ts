import { isKnown, type Word } from "./types.ts";
import { commandName, type OptionSpec, readOptions } from "./words.ts";
import { type Inner, lineOf, unclear } from "./inner.ts";
import { alias, declaration, find, trap, watch, xargs } from "./programs.ts";

export type { Inner } from "./inner.ts";
export { assignmentRuns } from "./programs.ts";

type Unwrapper = (words: readonly Word[]) => Inner[];

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"];

/** The commands a simple command runs in its turn (the command itself is judged too, by the caller). */
export function unwrap(words: readonly Word[], input = false): Inner[] {
  const name = commandName(words[0]);
  if (name === null) return [];
  if (SHELLS.includes(name)) return shellString(words, input);
  return UNWRAPPERS[name]?.(words) ?? [];
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

/** `eval a b`: its words joined with spaces, read again as a line. */
function evalWords(words: readonly Word[]): Inner[] {
  const args = words.slice(1);
  if (args.some((w) => !isKnown(w))) return unclear("eval of a string built at run time");
  return args.length ? [{ kind: "line", text: args.map((w) => w.text).join(" ") }] : [];
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

/** `flock [options] FILE COMMAND…` or `flock FILE -c STRING`. */
function flock(words: readonly Word[]): Inner[] {
  if (words.some((w) => w.text === "-c" || w.text.startsWith("--command"))) return commandOption(words, "flock -c");
  return after({ short: "wEn", long: ["timeout", "conflict-exit-code"] }, 1)(words);
}

/** `-c STRING` / `--command[=]STRING`: the string is a command line. */
function commandOption(words: readonly Word[], what: string): Inner[] {
  for (let i = 1; i < words.length; i++) {
    const text = words[i].text;
    if (text.startsWith("--command=")) {
      return lineOf({ ...words[i], text: text.slice(10) }, `${what} built at run time`);
    }
    if ((/^-[A-Za-z]*c$/.test(text) || text === "--command") && i + 1 < words.length) {
      return lineOf(words[i + 1], `${what} built at run time`);
    }
  }
  return [];
}

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
  noglob: after({}), // zsh's precommand modifiers
  nocorrect: after({}),
  repeat: after({}, 1),
  chroot: after({ long: ["userspec", "groups"] }, 1),
  ionice: after({ short: "cnp", long: ["class", "classdata", "pid"] }),
  taskset: after({}, 1, ["p", "pid"]), // a mask (or -c list), then the command
  runuser: after({ short: "ugG", long: ["user", "group", "supp-group"] }),
  strace: after({ short: "oeEsSpPuIbaX", long: ["output", "trace", "signal", "attach", "user"] }),
  ltrace: after({ short: "oeEsSpPuIbaX", long: ["output"] }),
  flock: flock,
  script: (words) => commandOption(words, "script -c"),
  find,
  watch,
  alias,
  trap,
  su: (words) => commandOption(words, "su -c"),
  export: declaration,
  declare: declaration,
  typeset: declaration,
  local: declaration,
  readonly: declaration,
  fc: (words) => words.some((w) => /^-[a-z]*l/.test(w.text)) ? [] : unclear("fc re-runs a line from history"),
};
