import type { TmuxServer } from "../../tmux/server.ts";
import type { ProcState } from "../facts/mod.ts";
import { type AgentActivity, type AgentId, agentIn, lookAtAgent } from "../agents/mod.ts";

/** An agent CLI's part of a pane's status: which CLI, and what it does. */
export interface AgentStatus {
  id: AgentId;
  /** The CLI's name for people: "Claude Code". */
  name: string;
  /** working; idle (waiting for its person's next input); asking (its person must answer a question). */
  activity: AgentActivity;
  /** With asking: the question and its choices as its screen shows them. */
  question: string | null;
}

/**
 * What the agent CLI in front of the pane does (null: no agent CLI tmuxwright knows is in front, or
 * neither its signals nor its screen say): its hooks or title, and its screen, in one round trip.
 */
export async function probeAgent(
  tmux: TmuxServer,
  paneId: string,
  proc: ProcState | null,
): Promise<AgentStatus | null> {
  const agent = agentIn(proc);
  if (agent === null) return null;
  const look = await lookAtAgent(tmux, paneId, agent).catch(() => null);
  if (look?.activity == null) return null;
  return { id: agent.cli.id, name: agent.cli.name, activity: look.activity, question: look.question };
}
