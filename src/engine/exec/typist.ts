import type { TmuxServer } from "../../tmux/server.ts";
import { ParkedStreams } from "./parked.ts";
import type { PaneOutput } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { newMarkerId } from "./markers.ts";
import type { Typed } from "./typed.ts";
import type { Prepared } from "./follow.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import { CommandFiles } from "./command_files.ts";
import { PromptFinder } from "./prompt_finder.ts";
import { typeMarked } from "./type_marked.ts";
import { typeWrapped } from "./type_wrapped.ts";

export type { Prepared };

/** Characters a bracketed paste passes through unchanged: tab, newline and printable text. */
// deno-lint-ignore no-control-regex
const UNPASTEABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * Types commands into panes' shells. An integrated shell at its prompt gets the command text
 * itself (bash, zsh, fish: one bracketed paste and the accept key) or, in dash, `__tw_run FILE`
 * typed with the terminal's echo off, which shows the command and runs the file; either way the
 * pane shows the command, and the shell's marks say where its output starts and ends
 * (type_marked.ts). Any other shell gets the wrapper line (type_wrapped.ts, markers.ts).
 */
export class Typist {
  #count = 0;
  readonly #parked = new ParkedStreams();
  readonly #files: CommandFiles;
  readonly #prompts: PromptFinder;

  constructor(
    private readonly tmux: TmuxServer,
    output: PaneOutput,
    stateDir: string,
    /** Asks the OS whether a shell that printed no mark waits at its prompt (absent: the grace decides). */
    proc?: ProcessFacts,
  ) {
    this.#files = new CommandFiles(tmux, stateDir);
    this.#prompts = new PromptFinder(tmux, output, this.#parked, proc);
    // A reconnect may reach another tmux server (a restarted host or container), where pane ids,
    // and in a container pids too, are given again: what was known of a pane (`%N`, its pid) is not.
    tmux.onStatus((status) => {
      if (status.kind !== "connected" || !status.reconnect) return;
      this.#parked.close();
      this.#prompts.forget();
      this.#files.forgetRemoteDir();
    });
  }

  /** Follows the pane's output and waits until its shell is at its prompt (PANE_BUSY / PANE_DEAD otherwise). */
  prepare(pane: PaneInfo, action: string, signal?: AbortSignal, fresh = false): Promise<Prepared> {
    return this.#prompts.prepare(pane, action, signal, fresh);
  }

  /** Types `command` and follows it; the stream is the Typed's from here on. */
  async type(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number } = {}): Promise<Typed> {
    const { marks, pane } = prepared;
    const text = command.replace(/\n+$/, "");
    if (marks !== null && options.cwd === undefined && (marks.mode === "run" || !UNPASTEABLE.test(text))) {
      const id = `${Deno.pid}-exec-${++this.#count}`;
      const keyboard = { tmux: this.tmux, files: this.#files, parked: this.#parked };
      const typed = await typeMarked(keyboard, prepared, marks, { id, text, keepBytes: options.keepBytes });
      if (!typed.scanner.incomplete) return typed;
      // Incomplete text (an open quote) is not run: the wrapper line reports the shell's own error.
      typed.close();
      const back = await this.prepare(pane, "run a command in");
      return await this.#typeWrapped({ ...back, marks: null }, command, options);
    }
    return await this.#typeWrapped(prepared, command, options);
  }

  #typeWrapped(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number }): Promise<Typed> {
    const id = newMarkerId(++this.#count);
    return typeWrapped(this.tmux, this.#files, prepared, { id, command, ...options });
  }

  /** Removes this process's command files on the host (at shutdown, while its link is up). */
  removeRemoteFiles(): Promise<void> {
    return this.#files.removeRemote();
  }
}
