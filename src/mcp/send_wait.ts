import * as z from "zod";
import type { PaneInfo } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { cursorNow, MAX_WAIT_MS, parseTriggers, watchPane } from "../engine/watch/mod.ts";
import type { ToolContext } from "./context.ts";
import { budgetFields, budgetFrom, callText, fitShown } from "./budget.ts";
import { stateResult } from "./results.ts";
import { inputFields } from "./question.ts";
import { paneExitFields } from "./pane_end.ts";
import { untilShellDrawn } from "../engine/exec/mod.ts";

/** Input a tool sends, then waits on: watch_pane's triggers, from before the keys were sent. */
export const waitArg = z.array(z.string().min(1).max(2_000)).min(1).max(16).optional().describe(
  "watch_pane triggers to wait for (shell, input, pattern:RE…); the pane's exit ends it",
);
export const waitTimeoutArg = z.number().int().min(0).optional().describe("with wait; default 30000");

export const SEND_WAIT_RESULT = {
  cursor: "the position before the input was sent: wait_for_text / capture_since start there",
  trigger: "with wait: the trigger that fired, or timeout",
  line: "with wait: the line that fired a pattern/error trigger",
  exit_code: "with wait: the status of the command that ended (exit; shell in an integrated shell)",
  elapsed_ms: "with wait: time from sending until the trigger",
  output: "with wait: what the input caused, without its echo (within max_output)",
  state: "with wait, on a timeout: the pane state (as pane_state)",
  outcome: "with wait: input when a program waits for the terminal (also ends a shell wait)",
  pane_state: "with outcome input: {command, kind, waiting_for_input}",
  signal: "with wait, trigger exit, when a signal ended the pane's program: its number",
  pane_dead: "with wait, trigger exit: the pane's own program ended (the pane stays, dead)",
  last_lines: "with pane_dead: the last 20 non-blank lines the pane shows",
};

/**
 * Sends input and, with `wait`, waits in the same call for what it causes. The watch listens
 * before anything is sent, so a reply that comes at once is not missed; the cursor taken before
 * sending lets a later wait_for_text or capture_since start from the same point.
 */
export async function sendAndWait(
  ctx: ToolContext,
  pane: PaneInfo,
  send: () => Promise<void>,
  options: { wait?: string[]; timeoutMs?: number; maxOutput?: number; echoLines: number; endsLine: boolean },
): Promise<Record<string, unknown>> {
  const cursor = await cursorNow(ctx.tmux, pane, ctx.app.output.followsLog(pane));
  if (options.wait === undefined) {
    await send();
    return { cursor };
  }
  const triggers = await parseTriggers(options.wait, (source, o) => ctx.app.patterns.compile(source, o));
  // Waiting for the shell ends when a program asks instead (a question, a REPL): its answer is the agent's.
  if (options.wait.includes("shell") && !triggers.some((t) => t.kind === "input")) {
    triggers.push({ kind: "input", name: "input" });
  }
  const timeoutMs = Math.min(options.timeoutMs ?? 30_000, MAX_WAIT_MS);
  // A pane that has run a command has drawn its prompt long ago: no look (a round trip on a host).
  const fresh = ctx.app.executor.jobs.current(pane.paneId) === null;
  if (fresh && triggers.some((t) => t.kind === "shell")) await untilShellDrawn(ctx.tmux, pane, ctx.signal);
  const result = await watchPane(ctx.app, pane, triggers, {
    timeoutMs,
    signal: ctx.signal,
    origin: ctx.origin,
    act: send,
    skipLines: options.echoLines,
    endsLine: options.endsLine,
    stateOnTimeout: true,
  });
  if (result.trigger === "cancelled") throw new ToolError("CANCELLED", `Wait cancelled after ${result.elapsedMs} ms`);
  const lines = result.output === "" ? [] : result.output.split("\n");
  if (result.trigger === "shell" && result.unfinishedLast) lines.pop(); // the prompt the shell drew
  const shown = fitShown(
    lines,
    budgetFrom(options.maxOutput),
    () => callText("capture_since", { cursor }),
  );
  return {
    cursor,
    trigger: result.trigger,
    ...(result.line !== undefined ? { line: result.line } : {}),
    ...(result.exitCode !== undefined ? { exit_code: result.exitCode } : {}),
    elapsed_ms: result.elapsedMs,
    output: shown.lines.join("\n"),
    ...budgetFields(shown.facts),
    ...(result.trigger === "timeout" ? { state: stateResult(result.state) } : {}),
    ...(result.trigger === "input" ? await inputFields(ctx, pane, result.state.proc) : {}),
    ...(result.already ? { already: true } : {}),
    ...paneExitFields(result.paneExit),
  };
}
