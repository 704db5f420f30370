/**
 * A pane's status as a person reads it: running (what), idle at its prompt, waiting for input,
 * exited N, gone; and whether it needs the person. One function for every view (/watch's wall,
 * the MCP App's badge, pane_state), from tmux's pane fields and the OS's process facts.
 */
import type { TmuxServer } from "../../tmux/server.ts";
import {
  asksForInput,
  atShellPrompt,
  type PaneProcess,
  paneProcess,
  processExists,
  type ProcessFacts,
  readProcState,
  SHELLS,
} from "../facts/mod.ts";
import { type AgentStatus, probeAgent } from "./agent_status.ts";

export type PaneState = "running" | "idle" | "waiting" | "exited" | "gone";

export interface PaneStatus {
  state: PaneState;
  /** The program in front (running, waiting, idle: the shell), the last one in front (exited); null when gone. */
  command: string | null;
  /** Exited: the exit status (128+N for signal N); null otherwise or when not known yet. */
  exit_code: number | null;
  /** Waiting for input, a policy question pending, or exited non-zero. */
  needs_person: boolean;
  /** An agent CLI in front (Claude Code, Codex CLI, Gemini CLI): what it does, by its own signals and screen. */
  agent_cli?: AgentStatus;
}

/** What tmux says of the pane (a `PaneInfo` is one). */
export interface StatusPane {
  dead: boolean;
  exitCode: number | null;
  /** tmux's `pane_current_command`. */
  command: string;
  pid: number | null;
}

export interface StatusFacts {
  /** The cursor stands after text on its line (a question without a newline). */
  unfinishedLine?: boolean;
  /** A policy question about this pane awaits the person. */
  question?: boolean;
}

/**
 * The status of `pane` (null: gone) given its process facts (null: not read; then tmux's
 * foreground command decides between idle and running). "Waiting" is the question `execute_command`
 * asks (`asksForInput`): a process, not the pane's shell at its prompt, blocked reading the terminal.
 */
export function paneStatus(pane: StatusPane | null, process: PaneProcess | null, facts: StatusFacts = {}): PaneStatus {
  const question = facts.question === true;
  if (pane === null) return { state: "gone", command: null, exit_code: null, needs_person: question };
  if (pane.dead || process?.alive === false) {
    const code = pane.dead ? pane.exitCode : process?.exitCode ?? null;
    return { state: "exited", command: pane.command || null, exit_code: code, needs_person: question || !!code };
  }
  const proc = process?.proc ?? null;
  if (proc === null || proc.fgPid === null) {
    const idle = SHELLS.has(pane.command.replace(/^-/, ""));
    return { state: idle ? "idle" : "running", command: pane.command || null, exit_code: null, needs_person: question };
  }
  if (asksForInput(proc, pane.pid, facts.unfinishedLine === true)) {
    return { state: "waiting", command: proc.inputCommand ?? proc.fgCommand, exit_code: null, needs_person: true };
  }
  const state = atShellPrompt(proc) ? "idle" : "running";
  return { state, command: proc.fgCommand ?? (pane.command || null), exit_code: null, needs_person: question };
}

/**
 * How every view words a status: "running (make)", "idle at its prompt (bash)", "waiting for
 * input (python3)", "exited 3", "gone". Self-contained (no outer names), so the browser views
 * embed its source and say exactly the same.
 */
export function statusText(status: Pick<PaneStatus, "state" | "command" | "exit_code" | "agent_cli">): string {
  const agent = status.agent_cli;
  if (agent && status.state !== "exited" && status.state !== "gone") {
    if (agent.activity === "asking") return "asking its person (" + agent.name + ")";
    return (agent.activity === "working" ? "working" : "idle, waiting for its user") + " (" + agent.name + ")";
  }
  const what = status.command ? " (" + status.command + ")" : "";
  if (status.state === "waiting") return "waiting for input" + what;
  if (status.state === "idle") return "idle at its prompt" + what;
  if (status.state === "exited") return "exited " + (status.exit_code === null ? "?" : status.exit_code);
  if (status.state === "gone") return "gone";
  return "running" + what;
}

export interface ProbeOptions {
  /** A policy question about this pane awaits the person. */
  question?: boolean;
}

/**
 * Reads the pane's process facts (through its host's `facts` and `tmux`) and its status: one snapshot,
 * plus one with the terminal's modes when /proc cannot tell whether a program in front reads the
 * terminal (poll/epoll), as `execute_command`'s probe asks.
 */
export async function probePaneStatus(
  facts: ProcessFacts,
  tmux: TmuxServer,
  pane: StatusPane & { paneId: string },
  options: ProbeOptions = {},
): Promise<{ process: PaneProcess; status: PaneStatus }> {
  const process = await paneProcess(facts, pane);
  let unfinishedLine = false;
  const proc = process.proc;
  if (proc && proc.waitingForInput === null && proc.fgPid !== pane.pid) {
    unfinishedLine = await cursorAfterText(tmux, pane.paneId).catch(() => false);
    if (unfinishedLine) {
      const look = await facts.look(pane.pid!, { terminal: true });
      if (processExists(look, pane.pid!) === true) process.proc = readProcState(look, pane.pid!);
    }
  }
  const status = paneStatus(pane, process, { unfinishedLine, question: options.question });
  return { process, status: await withAgent(tmux, pane.paneId, status, process.proc, options.question === true) };
}

/** An agent CLI in front: its own state (working → running, idle, asking → waiting and needs its person). */
async function withAgent(
  tmux: TmuxServer,
  paneId: string,
  status: PaneStatus,
  proc: PaneProcess["proc"],
  question: boolean,
): Promise<PaneStatus> {
  if (status.state === "exited" || status.state === "gone") return status;
  const agent = await probeAgent(tmux, paneId, proc);
  if (agent === null) return status;
  const state = agent.activity === "working" ? "running" : agent.activity === "idle" ? "idle" : "waiting";
  return { ...status, state, needs_person: question || agent.activity === "asking", agent_cli: agent };
}

/** The cursor stands after text on its line: what a question without a newline leaves. */
async function cursorAfterText(tmux: TmuxServer, paneId: string): Promise<boolean> {
  const [x] = await tmux.run("display-message", "-p", "-t", paneId, "#{cursor_x}");
  return Number(x) > 0;
}
