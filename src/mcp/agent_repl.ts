import type { PaneInfo } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { atShellPrompt, paneProcess } from "../engine/facts/mod.ts";
import { AGENT_CLIS, agentIn, ClaudeEvents, claudeHookPaths } from "../engine/agents/mod.ts";
import { runAgentTurn } from "../engine/watch/mod.ts";
import type { ToolContext } from "./context.ts";
import { paneIds } from "./results.ts";
import { budgetFields, budgetFrom, callText, fitShown } from "./budget.ts";
import { exitFields } from "./pane_end.ts";

/** What run_in_repl sends and how long it waits, for an agent CLI's turn. */
export interface AgentTurnArgs {
  input?: string;
  timeoutMs: number;
  maxOutput?: number;
}

/** How long a shell that is starting a command (`sh -c claude`) is given to become the agent CLI. */
const STARTING_MS = 3000;

/**
 * The agent CLI in front of the pane; a shell in front that is not at its prompt is starting a
 * program (create_pane's `command`, a moment after the call): looked at again until it is one.
 */
async function agentStarting(ctx: ToolContext, pane: PaneInfo, waitMs: number) {
  const until = performance.now() + waitMs;
  for (;;) {
    const process = await paneProcess(ctx.app.proc, pane);
    const agent = agentIn(process.proc);
    const starting = process.proc?.fgIsShell === true && !atShellPrompt(process.proc);
    if (agent || !starting || performance.now() >= until || ctx.signal.aborted) return { process, agent };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** For the tool reference: the fields only an agent CLI's turn returns. */
export const AGENT_TURN_RESULT = {
  agent: "the agent CLI in the pane (claude-code, codex, gemini), when `prompt` was omitted",
  question:
    "with outcome input from an agent CLI: its question to its person and the choices, as its screen shows them",
  reply_from: "agent CLI: hooks (Claude Code's Stop hook, the whole last message) or screen (as drawn, frame cut)",
  reply_cut: "agent CLI: the screen no longer shows the turn's start; output is its end (capture_pane shows the rest)",
  sent: "agent CLI: the input was sent (false when a question to its person was already open: answer it first)",
};

/**
 * run_in_repl without `prompt`: one turn of the agent CLI in front of the pane (Claude Code, Codex
 * CLI, Gemini CLI), or, without `input`, the turn in progress or the last one. Another program in
 * front is an error that says to give `prompt`.
 */
export async function agentTurnCall(ctx: ToolContext, pane: PaneInfo, args: AgentTurnArgs) {
  const { process, agent } = await agentStarting(ctx, pane, Math.min(STARTING_MS, args.timeoutMs));
  if (agent === null) {
    const names = AGENT_CLIS.map((cli) => cli.name).join(", ");
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cannot run a turn in pane ${pane.paneId} without \`prompt\`: it runs ${
        JSON.stringify(process.proc?.fgCommand ?? pane.command)
      }, not an agent CLI tmuxwright reads (${names})`,
      "Give `prompt` (the REPL's prompt regex, e.g. '^>>> $'), or start the agent CLI in the pane first.",
    );
  }
  // Hooks are read from this server's state directory; a pane another tmuxwright started is read from its screen.
  const events = ctx.tmux.remote ? null : new ClaudeEvents(claudeHookPaths(ctx.app.config.stateDir).events);
  const turn = await runAgentTurn(ctx.app, pane, agent, args.input ?? null, events, {
    timeoutMs: Math.max(0, args.timeoutMs - (performance.now() - ctx.startedAt)), // timeout_ms counts from the call
    signal: ctx.signal,
    onProgress: (elapsed, total) =>
      void ctx.progress(elapsed, total, `${agent.cli.name}: ${Math.round(elapsed / 1000)} s`),
  });
  if (turn.end.kind === "cancelled") {
    throw new ToolError("CANCELLED", `Wait cancelled after ${turn.end.elapsedMs} ms`);
  }
  const asks = turn.end.kind === "done" && turn.end.value === "asking";
  // The whole reply again: the same call without input reads the last turn.
  const shown = fitShown(
    turn.reply === "" ? [] : turn.reply.split("\n"),
    budgetFrom(args.maxOutput),
    (_, total) => callText("run_in_repl", { pane_id: pane.paneId, max_output: total + 1024 }),
  );
  return {
    ...paneIds(pane),
    agent: agent.cli.id,
    output: shown.lines.join("\n"),
    ...budgetFields(shown.facts),
    prompt_seen: turn.end.kind === "done" && turn.end.value === "ended",
    ...(asks
      ? {
        outcome: "input",
        question: turn.question ?? "",
        hint: "Answer with send_keys (a choice's number or key, as the question shows), then run_in_repl with this " +
          "pane_id and no input to wait for the turn's end.",
      }
      : {}),
    ...(turn.end.kind === "timeout"
      ? { timed_out: true, hint: "The turn goes on: run_in_repl with this pane_id and no input waits again." }
      : {}),
    ...(turn.end.kind === "exited"
      ? { outcome: "exited", ...exitFields(turn.end.exit), last_lines: turn.lastLines ?? [] }
      : {}),
    reply_from: turn.from,
    ...(turn.cut ? { reply_cut: true } : {}),
    ...(args.input !== undefined ? { sent: turn.sent } : {}),
    elapsed_ms: turn.end.elapsedMs,
  };
}
