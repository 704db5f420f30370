import type { TmuxServer } from "../../tmux/server.ts";
import type { AgentActivity, ScreenReading } from "./cli.ts";
import { CLI_STATE_OPTION, hookActivity } from "./claude_hooks.ts";
import type { AgentInPane } from "./known.ts";

/** One look at an agent CLI's pane: its screen, its title, its hooks' state, and what they say together. */
export interface AgentLook {
  /** The rows looked at, top to bottom, trailing blanks trimmed (with `history`: that much scrollback first). */
  lines: string[];
  /** The absolute row (history counted) of `lines[0]`. */
  firstRow: number;
  title: string;
  /** What the CLI's own signal says: its hooks (Claude Code in a pane tmuxwright started), else its title. */
  signal: AgentActivity | null;
  /** The pane has the hooks of this very process. */
  hooked: boolean;
  screen: ScreenReading;
  /**
   * What it does: what its screen shows where the screen is sure (the screen is what the person
   * sees, and a hook may be stale: Claude Code runs none when a turn is interrupted at the
   * keyboard), else its own signal.
   */
  activity: AgentActivity | null;
  question: string | null;
  /** The screen is the alternate one (a full-screen view): no scrollback behind it. */
  alternate: boolean;
}

const FIELDS = `#{pane_title}\x1f#{${CLI_STATE_OPTION}}\x1f#{history_size}\x1f#{alternate_on}\x1f#{pane_id}`;

/** Looks at the pane in one pipelined round trip; `history` rows of scrollback come first when asked. */
export async function lookAtAgent(
  tmux: TmuxServer,
  paneId: string,
  agent: AgentInPane,
  history = 0,
): Promise<AgentLook> {
  const capture = ["capture-pane", "-p", "-J", "-t", paneId, ...(history > 0 ? ["-S", String(-history)] : [])];
  const [[facts], rows] = await tmux.batch([["display-message", "-p", "-t", paneId, FIELDS], capture]);
  const [title, option, size, alternate, id] = (facts ?? "").split("\x1f");
  if (id !== paneId) throw new Error(`pane ${paneId} is gone`);
  const lines = rows.map((row) => row.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const historySize = Number(size) || 0;
  const hook = hookActivity(option ?? "", agent.pid);
  const signal = hook ?? agent.cli.titleSays(title ?? "");
  const screen = agent.cli.read(lines);
  const activity = screen.activity ?? signal;
  return {
    lines,
    firstRow: historySize - Math.min(history, historySize),
    title: title ?? "",
    signal,
    hooked: hook !== null,
    screen,
    activity,
    // A question the screen's description does not know (the CLI's signal says it asks): the screen's bottom.
    question: activity !== "asking"
      ? null
      : screen.question ?? lines.filter((l) => l.trim() !== "").slice(-12).join("\n"),
    alternate: alternate === "1",
  };
}
