import { dirname, join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { ACCEPT_KEY, MarkReader, type ShellMarks } from "../integration/mod.ts";
import { ParkedStreams } from "./parked.ts";
import type { PaneOutput } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { OutputCollector } from "./collector.ts";
import { HookScanner, NestedScanner } from "./hook_scanner.ts";
import { LOOK_BACK, markedPrompt } from "./marked_prompt.ts";
import { commandFile, inlineLine, MarkerScanner, newMarkerId, quoteFor, wrapperLine } from "./markers.ts";
import { sshShellWaits } from "./ssh_shell.ts";
import { PROMPT_GRACE_MS, type ShellKind, waitForPrompt } from "./prompt.ts";
import { foreground, shellKind } from "./shell.ts";
import { PaneStream } from "./stream.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { follow, type Prepared } from "./follow.ts";
import { atShellPrompt, type ProcessFacts, readProcState } from "../facts/mod.ts";

export type { Prepared };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** A shell started with marks that printed none is typed into with the wrapper line this long before a new look. */
const UNMARKED_RECHECK_MS = 5 * 60_000;
/** How often a host's shell that printed no mark yet is looked at (process facts). */
const REMOTE_PROMPT_CHECK_MS = 400;
/** How long an integrated shell may take to react to an accepted line (its S, E or C mark). */
const REACT_MS = 2_000;
/** Characters a bracketed paste passes through unchanged: tab, newline and printable text. */
// deno-lint-ignore no-control-regex
const UNPASTEABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * Types commands into panes' shells. An integrated shell at its prompt gets the command text
 * itself (bash, zsh, fish: one bracketed paste and the accept key) or, in dash, `__tw_run FILE`
 * typed with the terminal's echo off, which shows the command and runs the file; either way the
 * pane shows the command, and the shell's marks say where its output starts and ends. Any other
 * shell gets the wrapper line (markers.ts).
 */
export class Typist {
  #dirReady: Promise<string> | null = null;
  #remoteDirReady: Promise<string> | null = null;
  /** Names this process's command files on a remote host apart from other servers'. */
  readonly #remoteTag = newMarkerId(0).split("x").pop()!;
  #count = 0;
  /** Panes (`%N:pid`) whose shell was started with marks but prints none (its rc ran `exec zsh`), until when. */
  readonly #unmarked = new Map<string, number>();
  readonly #parked = new ParkedStreams();
  /** The shell last typed into per pane (`%N:pid`), to notice tmux's stale foreground names. */
  readonly #shells = new Map<string, Prepared["shell"]>();

  constructor(
    private readonly tmux: TmuxServer,
    private readonly output: PaneOutput,
    private readonly stateDir: string,
    /** Asks the OS whether a shell that printed no mark waits at its prompt (absent: the grace decides). */
    private readonly proc?: ProcessFacts,
  ) {}

  /** Follows the pane's output and waits until its shell is at its prompt (PANE_BUSY / PANE_DEAD otherwise). */
  async prepare(pane: PaneInfo, action: string, signal?: AbortSignal, fresh = false): Promise<Prepared> {
    const key = `${pane.paneId}:${pane.pid}`;
    // Looked at again after a while: start-up files slower than the grace may have installed the hooks since.
    const integrated = pane.marks !== null && !pane.dead && !(performance.now() < (this.#unmarked.get(key) ?? 0));
    // The last command's stream saw the shell draw its prompt since: type at once.
    const parked = integrated ? this.#parked.take(pane.paneId, pane.pid) : null;
    if (parked) {
      const kind: ShellKind = pane.marks!.shell === "fish" ? "fish" : "posix";
      return { pane, stream: parked, marks: pane.marks, shell: { kind, name: pane.marks!.shell } };
    }
    // An integrated pane is followed from a little before the log's end: its last mark is there.
    const reader = integrated ? new MarkReader(pane.marks!.nonce) : null;
    const stream = await PaneStream.open(this.output, pane, {
      lookBack: reader ? LOOK_BACK : 0,
      listener: reader ? (bytes, offset) => void reader.push(bytes, offset) : undefined,
    });
    let outer: Prepared["outer"];
    // A shell that printed a mark or was typed into before has started: a program in it is busy.
    let started = this.#shells.has(key);
    try {
      if (pane.marks && reader && stream.logged) {
        const { state, last } = await markedPrompt(stream, pane, pane.marks, reader, {
          graceMs: PROMPT_GRACE_MS,
          signal,
          isDead: async () => (await foreground(this.tmux, pane.paneId)).dead,
          atPrompt: this.proc && pane.pid !== null ? () => this.#atPrompt(pane.pid!) : undefined,
          // Each look at the processes on a host holds its link's queue for a round trip and a script.
          checkMs: this.tmux.remote ? REMOTE_PROMPT_CHECK_MS : undefined,
        });
        if (state === "ready") {
          const kind: ShellKind = pane.marks.shell === "fish" ? "fish" : "posix";
          return { pane, stream, marks: pane.marks, shell: { kind, name: pane.marks.shell } };
        }
        if (state === "unmarked") this.#unmarked.set(key, performance.now() + UNMARKED_RECHECK_MS);
        if (last !== null) started = true;
        // A shell started inside the integrated one: when it ends, the outer shell's end mark says so.
        if (last?.kind === "S") outer = { nonce: pane.marks.nonce, seq: last.seq };
      }
      const shell = await waitForPrompt(
        this.tmux,
        pane,
        action,
        signal,
        fresh,
        !started,
        (seen) => this.#confirmShell(key, pane, seen),
      ).catch(async (error) => {
        // `ssh host` typed as a command: its remote shell's prompt takes commands too.
        if (this.proc && await sshShellWaits(this.tmux, this.proc, pane).catch(() => false)) {
          return { kind: "posix" as const, name: "ssh", ssh: true as const };
        }
        throw error;
      });
      return { pane, stream, marks: null, shell, outer };
    } catch (error) {
      stream.close();
      throw error;
    }
  }

  /**
   * tmux names the terminal's foreground process group; tcsh leaves it on a job that has ended,
   * for which tmux names the pane's first program (`sh`, the start-up gate), also between two
   * programs its start-up file runs, and the wrong wrapper line would be typed. So a pane's first
   * shell, and a shell other than the one last seen in it, is asked of the OS (an ended group falls
   * back to the pane's own process): a program that is not a shell there (the start-up file's next
   * one) means the shell is not at its prompt yet. The same shell as last time costs nothing.
   */
  async #confirmShell(
    key: string,
    pane: PaneInfo,
    seen: Prepared["shell"],
  ): Promise<{ kind: ShellKind | null; name: string }> {
    const before = this.#shells.get(key);
    let shell = seen;
    if (before?.name !== seen.name && this.proc && pane.pid !== null) {
      try {
        const state = readProcState(await this.proc.look(pane.pid), pane.pid);
        // The group ended between two reads: look again.
        if (state.fgPid !== null && state.fgCommand === null) return { kind: null, name: seen.name };
        if (state.fgCommand !== null) {
          const kind = shellKind(state.fgCommand);
          if (kind === null) return { kind, name: state.fgCommand };
          shell = { kind, name: state.fgCommand };
        }
      } catch { /* no look could be taken: tmux's answer stands */ }
    }
    this.#shells.delete(key);
    this.#shells.set(key, shell);
    if (this.#shells.size > 1024) this.#shells.delete(this.#shells.keys().next().value!); // the oldest pane
    return shell;
  }

  /** The pane's shell holds the terminal and waits for input, or null when the OS cannot say. */
  async #atPrompt(panePid: number): Promise<boolean | null> {
    const state = readProcState(await this.proc!.look(panePid), panePid);
    if (state.fgPid === null) return null;
    return state.state === "S" && atShellPrompt(state);
  }

  /** Types `command` and follows it; the stream is the Typed's from here on. */
  async type(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number } = {}): Promise<Typed> {
    const { marks, pane } = prepared;
    const text = command.replace(/\n+$/, "");
    if (marks !== null && options.cwd === undefined && (marks.mode === "run" || !UNPASTEABLE.test(text))) {
      const typed = await this.#typeMarked(prepared, marks, text, options.keepBytes);
      if (!typed.scanner.incomplete) return typed;
      // Incomplete text (an open quote) is not run: the wrapper line reports the shell's own error.
      typed.close();
      const back = await this.prepare(pane, "run a command in");
      return await this.#typeWrapped({ ...back, marks: null }, command, options);
    }
    return await this.#typeWrapped(prepared, command, options);
  }

  async #typeMarked(prepared: Prepared, marks: ShellMarks, text: string, keepBytes?: number): Promise<Typed> {
    const { pane } = prepared;
    const id = `${Deno.pid}-exec-${++this.#count}`;
    const scanner = new HookScanner(marks.nonce);
    const typed = follow(prepared, id, scanner, new OutputCollector(keepBytes), () => {}, (stream, m, last) => {
      this.#parked.park(pane.paneId, pane.pid, stream, m.nonce, last);
    });
    try {
      if (marks.mode === "paste") {
        // The brackets go in the buffer itself: zsh draws its prompt (and its P mark) before it asks
        // the terminal for bracketed paste, so tmux's own bracketing (`-p`) could come too late.
        await this.tmux.batch([
          ["set-buffer", "-b", `tmuxwright-${id}`, "--", `${PASTE_START} ${text}${PASTE_END}`],
          ["paste-buffer", "-d", "-b", `tmuxwright-${id}`, "-t", pane.paneId],
          ["send-keys", "-t", pane.paneId, "-l", "--", ACCEPT_KEY],
        ]);
      } else {
        const file = join(await this.#execDir(), `${id}.sh`);
        await Deno.writeTextFile(file, commandFile("posix", text), { mode: 0o600 });
        typed.onClose(() => Deno.remove(file).catch(() => {}));
        // Typed with echo off, so the pane shows the command `__tw_run` prints, not the call.
        await this.tmux.oneShot("run-shell", "-t", pane.paneId, "stty -echo < '#{pane_tty}'");
        await this.tmux.batch([
          ["send-keys", "-t", pane.paneId, "-l", "--", ` __tw_run ${quoteFor("posix", file)}`],
          ["send-keys", "-t", pane.paneId, "Enter"],
        ]);
      }
    } catch (error) {
      typed.close();
      throw error;
    }
    // The shell reacts at once (S, E or C); an incomplete text is seen here, before anyone waits on it.
    const deadline = performance.now() + REACT_MS;
    while (scanner.startEnd === null && !scanner.incomplete && performance.now() < deadline) {
      await wakeOn(typed.changed(), deadline - performance.now());
    }
    if (scanner.incomplete && marks.shell !== "fish") { // fish's accept key cleared the line itself
      await this.tmux.run("send-keys", "-t", pane.paneId, "C-c");
      const back = performance.now() + REACT_MS;
      while (!scanner.end && performance.now() < back) await wakeOn(typed.changed(), back - performance.now());
    }
    return typed;
  }

  async #typeWrapped(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number }) {
    if (prepared.shell.ssh) return this.#typeInline(prepared, command, options);
    if (this.tmux.remote) return await this.#typeRemote(prepared, command, options);
    const { pane, shell } = prepared;
    const id = newMarkerId(++this.#count);
    const file = join(await this.#execDir(), `${id}.sh`);
    await Deno.writeTextFile(file, commandFile(shell.kind, command, options.cwd), { mode: 0o600 });
    const markers = new MarkerScanner(id);
    const scanner = prepared.outer ? new NestedScanner(markers, prepared.outer.nonce, prepared.outer.seq) : markers;
    const typed = follow(prepared, id, scanner, new OutputCollector(options.keepBytes), () => {
      Deno.remove(file).catch(() => {});
    });
    try {
      await this.tmux.batch([
        ["send-keys", "-t", pane.paneId, "-l", "--", wrapperLine(shell.kind, id, file)],
        ["send-keys", "-t", pane.paneId, "Enter"],
      ]);
    } catch (error) {
      typed.close();
      throw error;
    }
    return typed;
  }

  /** Into a remote shell behind ssh: the command in the typed line itself (no file there to read). */
  async #typeInline(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number }) {
    const id = newMarkerId(++this.#count);
    const markers = new MarkerScanner(id);
    const scanner = prepared.outer ? new NestedScanner(markers, prepared.outer.nonce, prepared.outer.seq) : markers;
    const typed = follow(prepared, id, scanner, new OutputCollector(options.keepBytes), () => {});
    try {
      await this.tmux.batch([
        ["send-keys", "-t", prepared.pane.paneId, "-l", "--", inlineLine(id, command, options.cwd)],
        ["send-keys", "-t", prepared.pane.paneId, "Enter"],
      ]);
    } catch (error) {
      typed.close();
      throw error;
    }
    return typed;
  }

  /**
   * On another host the command file is written there by its tmux server (`save-buffer`, no
   * process started) into tmux's own socket directory (private to the user), one file per pane,
   * rewritten for each command (commands in a pane run one at a time); then the same wrapper line
   * as locally sources it.
   */
  async #typeRemote(prepared: Prepared, command: string, options: { cwd?: string; keepBytes?: number }) {
    const { pane, shell } = prepared;
    const id = newMarkerId(++this.#count);
    const file = `${await this.#remoteDir()}/tmuxwright-${this.#remoteTag}-${pane.paneId.slice(1)}.sh`;
    const buffer = `tmuxwright-cmd-${id}`;
    const markers = new MarkerScanner(id);
    const scanner = prepared.outer ? new NestedScanner(markers, prepared.outer.nonce, prepared.outer.seq) : markers;
    const typed = follow(prepared, id, scanner, new OutputCollector(options.keepBytes), () => {});
    try {
      await this.tmux.batch([
        ["set-buffer", "-b", buffer, "--", commandFile(shell.kind, command, options.cwd)],
        ["save-buffer", "-b", buffer, file],
        ["delete-buffer", "-b", buffer],
        ["send-keys", "-t", pane.paneId, "-l", "--", wrapperLine(shell.kind, id, file)],
        ["send-keys", "-t", pane.paneId, "Enter"],
      ]);
    } catch (error) {
      typed.close();
      this.#remoteDirReady = null; // the host's tmux may have restarted elsewhere
      throw error;
    }
    return typed;
  }

  /** The host's tmux socket directory (mode 0700, the user's): where its command files go. */
  #remoteDir(): Promise<string> {
    this.#remoteDirReady ??= this.tmux.run("display-message", "-p", "#{socket_path}").then(([path]) => {
      const dir = dirname(path ?? "");
      if (!dir.startsWith("/") || /['\n\r]/.test(dir)) throw new Error(`unexpected tmux socket path ${path}`);
      return dir;
    });
    return this.#remoteDirReady.catch((error) => {
      this.#remoteDirReady = null;
      throw error;
    });
  }

  /** Removes this process's command files on the host (at shutdown, while its link is up). */
  async removeRemoteFiles(): Promise<void> {
    if (!this.tmux.remote || this.#remoteDirReady === null) return;
    const dir = await this.#remoteDirReady.catch(() => null);
    if (dir !== null) await this.tmux.runShell(`rm -f '${dir}'/tmuxwright-${this.#remoteTag}-*.sh`).catch(() => {});
  }

  #execDir(): Promise<string> {
    this.#dirReady ??= (async () => {
      const dir = join(this.stateDir, "exec");
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      return dir;
    })();
    return this.#dirReady;
  }
}
