import type { TmuxServer } from "../../tmux/server.ts";
import { atShellPrompt, type ProcessFacts, type ProcState, readProcState, SHELLS } from "../facts/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { ToolError } from "../errors.ts";

/** What kind of program asks: a shell at its prompt, a REPL, a full-screen program, any other. */
export type AskerKind = "shell" | "repl" | "fullscreen" | "program";

/** The program a command left waiting for the terminal, as results report it (`pane_state`). */
export interface Asker {
  command: string;
  kind: AskerKind;
  waitingForInput: true;
}

/** Interpreters that read statements at a prompt of their own (`python3 -q`, `node`, `psql`). */
const REPLS =
  /^(python[\d.]*|ipython\d*|node|deno|bun|irb|ruby|psql|mysql|mariadb|sqlite3|ghci|lua[\d.]*|R|julia|bc|iex|erl|scala|sbcl|guile|ocaml|redis-cli|mongosh)$/;

/** Names the asking program; a full-screen one (vim, less, top) is told by tmux's alternate screen. */
export async function describeAsker(tmux: TmuxServer, paneId: string, state: ProcState | null): Promise<Asker> {
  const command = state?.inputCommand ?? state?.fgCommand ?? "";
  const shell = state !== null && SHELLS.has(command.replace(/^-/, ""));
  let kind: AskerKind = shell ? "shell" : REPLS.test(command) ? "repl" : "program";
  if (kind === "program") {
    const [alternate] = await tmux.run("display-message", "-p", "-t", paneId, "#{alternate_on}").catch(() => [""]);
    if (alternate === "1") kind = "fullscreen";
  }
  return { command, kind, waitingForInput: true };
}

/**
 * A command that asked is still running in the pane's own shell (its `read`, not a shell started
 * inside it): text typed now would be read as the answer, so a new command is refused.
 */
export async function assertNotAsking(proc: ProcessFacts, pane: PaneInfo): Promise<void> {
  if (pane.pid === null) return;
  const state = readProcState(await proc.look(pane.pid), pane.pid);
  if (state.fgPid !== pane.pid || state.waitingForInput !== true || atShellPrompt(state)) return;
  throw new ToolError(
    "PANE_BUSY",
    `Cannot run a command in pane ${pane.paneId}: its last command still waits for input (${state.fgCommand})`,
    'Answer it with send_keys (wait: ["shell"] returns the rest), or interrupt it with stop_process.',
  );
}
