import type { TmuxServer } from "../../tmux/server.ts";
import { MarkReader, type ShellMarks } from "../integration/mod.ts";
import type { ParkedStreams } from "./parked.ts";
import type { PaneOutput } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { LOOK_BACK, markedPrompt } from "./marked_prompt.ts";
import { sshShellWaits } from "./ssh_shell.ts";
import { PROMPT_GRACE_MS, type ShellKind, waitForPrompt } from "./prompt.ts";
import { foreground, shellKind } from "./shell.ts";
import { PaneStream } from "./stream.ts";
import type { Prepared } from "./follow.ts";
import { atShellPrompt, type ProcessFacts, readProcState } from "../facts/mod.ts";

/** A shell started with marks that printed none is typed into with the wrapper line this long before a new look. */
const UNMARKED_RECHECK_MS = 5 * 60_000;
/** How often a host's shell that printed no mark yet is looked at (process facts). */
const REMOTE_PROMPT_CHECK_MS = 400;

/**
 * Finds a pane's shell waiting at its prompt, and how to type there: an integrated shell by its
 * marks (marked_prompt.ts; at once from the stream its last command parked), any other by the
 * program tmux shows in front (prompt.ts), checked against the OS where tmux can be wrong.
 */
export class PromptFinder {
  /** Panes (`%N:pid`) whose shell was started with marks but prints none (its rc ran `exec zsh`), until when. */
  readonly #unmarked = new Map<string, number>();
  /** The shell last typed into per pane (`%N:pid`), to notice tmux's stale foreground names. */
  readonly #shells = new Map<string, Prepared["shell"]>();

  constructor(
    private readonly tmux: TmuxServer,
    private readonly output: PaneOutput,
    /** Streams of integrated shells whose last command ended (typing parks them there). */
    private readonly parked: ParkedStreams,
    /** Asks the OS whether a shell that printed no mark waits at its prompt (absent: the grace decides). */
    private readonly proc?: ProcessFacts,
  ) {}

  /** Forgets what was seen of every pane (after a reconnect: the tmux server may be another). */
  forget(): void {
    this.#unmarked.clear();
    this.#shells.clear();
  }

  /** Follows the pane's output and waits until its shell is at its prompt (PANE_BUSY / PANE_DEAD otherwise). */
  async prepare(pane: PaneInfo, action: string, signal?: AbortSignal, fresh = false): Promise<Prepared> {
    const key = `${pane.paneId}:${pane.pid}`;
    // Looked at again after a while: start-up files slower than the grace may have installed the hooks since.
    const integrated = pane.marks !== null && !pane.dead && !(performance.now() < (this.#unmarked.get(key) ?? 0));
    // The last command's stream saw the shell draw its prompt since: type at once.
    const parked = integrated ? this.parked.take(pane.paneId, pane.pid) : null;
    if (parked) return atMarkedPrompt(pane, pane.marks!, parked);
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
        if (state === "ready") return atMarkedPrompt(pane, pane.marks, stream);
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
}

/** An integrated shell waiting at its prompt: typed into as it is, its marks followed on `stream`. */
function atMarkedPrompt(pane: PaneInfo, marks: ShellMarks, stream: PaneStream): Prepared {
  const kind: ShellKind = marks.shell === "fish" ? "fish" : "posix";
  return { pane, stream, marks, shell: { kind, name: marks.shell } };
}
