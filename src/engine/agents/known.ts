import type { ProcState } from "../facts/mod.ts";
import type { AgentCli } from "./cli.ts";
import { claudeCode } from "./claude_code.ts";
import { codexCli } from "./codex_cli.ts";
import { geminiCli } from "./gemini_cli.ts";

/** The agent CLIs tmuxwright reads; any other program in a pane is read as it always was. */
export const AGENT_CLIS: readonly AgentCli[] = [claudeCode, codexCli, geminiCli];

/** An agent CLI in the foreground of a pane, and its process (the one its hooks name). */
export interface AgentInPane {
  cli: AgentCli;
  pid: number;
}

/** The agent CLI a command line runs (its words as the process facts give them), or null. */
export function agentFor(cmdline: string | null): AgentCli | null {
  if (!cmdline) return null;
  const words = cmdline.trim().split(/\s+/);
  return AGENT_CLIS.find((cli) => cli.runs(words)) ?? null;
}

/** The agent CLI holding the pane's terminal, from one look at its processes (null: none, or not known). */
export function agentIn(proc: ProcState | null): AgentInPane | null {
  if (proc === null || proc.fgPid === null) return null;
  const cli = agentFor(proc.fgCmdline);
  return cli === null ? null : { cli, pid: proc.fgPid };
}
