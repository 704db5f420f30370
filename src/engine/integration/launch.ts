import { join } from "node:path";
import { newNonce } from "./marks.ts";
import { BASH_RC, FISH_INIT, POSIX_ENV, ZSH_FILES } from "./scripts.ts";

/**
 * How commands are typed into an integrated shell:
 * - `paste`: the command text itself, as one bracketed paste, then the accept key (bash, zsh, fish);
 * - `run`: with the terminal's echo off, `__tw_run FILE`, which shows the command and runs the file (dash).
 */
export type TypingMode = "paste" | "run";

/** What the server knows of a pane's integration: stored in the pane option `@tmuxwright_marks`. */
export interface ShellMarks {
  /** The shell's name as tmux shows it in the foreground (`sh` is dash's integration too). */
  shell: "bash" | "zsh" | "fish" | "dash" | "sh";
  nonce: string;
  mode: TypingMode;
}

/** How to start a shell so that it prints marks. */
export interface Launch {
  argv: string[];
  env: Record<string, string>;
  marks: ShellMarks;
}

/** Marks are typed and stored as `shell:nonce`. */
export function encodeMarks(marks: ShellMarks): string {
  return `${marks.shell}:${marks.nonce}`;
}

export function decodeMarks(stored: string): ShellMarks | null {
  const match = /^(bash|zsh|fish|dash|sh):([0-9a-f]{16})$/.exec(stored);
  if (!match) return null;
  const shell = match[1] as ShellMarks["shell"];
  return { shell, nonce: match[2], mode: shell === "dash" || shell === "sh" ? "run" : "paste" };
}

const SH = "/bin/sh";
// The user's own ZDOTDIR / ENV is in the pane's environment, not the server's (its sandbox reads
// only a few variables): a one-line sh hands it on before the shell starts.
const WITH_ZDOTDIR = 'if [ -n "${ZDOTDIR+x}" ]; then export TMUXWRIGHT_USER_ZDOTDIR="$ZDOTDIR"; fi; ' +
  'export ZDOTDIR="$1"; shift; exec "$@"';
const WITH_ENV = 'if [ -n "${ENV+x}" ]; then export TMUXWRIGHT_USER_ENV="$ENV"; fi; export ENV="$1"; shift; exec "$@"';

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, "\\$&")}'`;
}

/**
 * How to start `shell` with the start-up files in `dir` (here, or on a remote host), or null when
 * it has no integration.
 */
export function shellLaunch(shell: string, login: boolean, dir: string, kinds = ALL_KINDS): Launch | null {
  const name = shell.replace(/^.*\//, "");
  const marks = decodeMarks(`${name}:${newNonce()}`);
  if (marks === null) return null;
  const kind = marks.shell === "sh" ? "dash" : marks.shell;
  if (!kinds.includes(kind)) return null;
  const env: Record<string, string> = { TMUXWRIGHT_SHELL_MARKS: marks.nonce };
  const loginFlag = login ? ["-l"] : [];
  switch (kind) {
    case "bash":
      if (login) env.TMUXWRIGHT_BASH_LOGIN = "1"; // --rcfile is ignored by login shells: the rc file reads the profile
      return { argv: [shell, "--rcfile", join(dir, "bashrc")], env, marks };
    case "zsh":
      return { argv: [SH, "-c", WITH_ZDOTDIR, "tmuxwright-zsh", join(dir, "zsh"), shell, ...loginFlag], env, marks };
    case "fish":
      return {
        argv: [shell, ...loginFlag, "--init-command", `source ${fishQuote(join(dir, "init.fish"))}`],
        env,
        marks,
      };
    case "dash":
      return { argv: [SH, "-c", WITH_ENV, "tmuxwright-sh", join(dir, "env.sh"), shell, ...loginFlag], env, marks };
  }
}

type Kind = "bash" | "zsh" | "fish" | "dash";
const ALL_KINDS: readonly Kind[] = ["bash", "zsh", "fish", "dash"];

/**
 * The start-up files of integrated shells, written once per server into `<state>/shell/`, and the
 * way to start each shell with them (see README.md). Shells without an integration (tcsh, nu, …)
 * start as they are; commands typed into them use the wrapper line.
 */
export class ShellIntegration {
  #written: Promise<string> | null = null;

  constructor(private readonly stateDir: string) {}

  /** The argv and environment that start `shell` with its integration, or null when there is none. */
  async launch(shell: string, login: boolean): Promise<Launch | null> {
    return shellLaunch(shell, login, await this.#write());
  }

  /** Writes the files (once per server: a newer server's files replace an older one's). */
  #write(): Promise<string> {
    this.#written ??= (async () => {
      const dir = join(this.stateDir, "shell");
      await Deno.mkdir(join(dir, "zsh"), { recursive: true, mode: 0o700 });
      const files: [string, string][] = [
        ["bashrc", BASH_RC],
        ["init.fish", FISH_INIT],
        ["env.sh", POSIX_ENV],
        ...Object.entries(ZSH_FILES).map(([name, text]): [string, string] => [join("zsh", name), text]),
      ];
      for (const [name, text] of files) {
        // Written aside and renamed: a shell starting meanwhile reads a whole file, old or new.
        const tmp = join(dir, `${name}.${Deno.pid}.tmp`);
        await Deno.writeTextFile(tmp, text, { mode: 0o600 });
        await Deno.rename(tmp, join(dir, name));
      }
      return dir;
    })();
    return this.#written;
  }
}
