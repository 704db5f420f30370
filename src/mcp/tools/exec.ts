import * as z from "zod";
import { defineTool } from "../define.ts";
import { commandArg, cwdArg, nameArg, paneIdArg } from "../args.ts";
import { assertKillable, checkCwd, checkName, checkNoNul } from "../checks.ts";
import { paneIds, RESULT_PANE_IDS } from "../results.ts";
import { hostArg } from "../hosts.ts";
import type { ToolContext } from "../context.ts";
import type { PaneInfo } from "../../engine/panes/mod.ts";
import { ToolError } from "../../engine/errors.ts";
import { SIGNALS } from "../../engine/exec/mod.ts";
import { askerResult } from "../question.ts";
import { BUDGET_RESULT, budgetFields, budgetFrom, callText, fitShown, maxOutputArg } from "../budget.ts";
import type { Budget } from "../../engine/output/mod.ts";
import { PANE_END_ERRORS, paneExitFields } from "../pane_end.ts";
import { effectiveTimeout } from "../deadlines.ts";

/** A process's last lines within the budget; the marker names the call that returns them all. */
function lastLinesFields(pane: PaneInfo, lines: string[], budget: Budget): Record<string, unknown> {
  const shown = fitShown(
    lines,
    budget,
    (_, total) =>
      pane.logPath
        ? callText("read_logs", { pane_id: pane.paneId, lines: lines.length + 20, max_output: total + 4096 })
        : callText("capture_pane", { pane_id: pane.paneId, lines: lines.length + 20, max_output: total + 1024 }),
  );
  return { last_lines: shown.lines, ...(shown.facts.truncated ? { last_lines_truncated: true } : {}) };
}

async function targetPane(ctx: ToolContext, ref: string | undefined): Promise<{ pane: PaneInfo; fresh: boolean }> {
  if (ref !== undefined) return { pane: await ctx.pane(ref, { recent: true }), fresh: false };
  const { pane, created } = await ctx.workspace.defaultPane();
  ctx.paneId = pane.paneId;
  return { pane, fresh: created };
}

function progress(ctx: ToolContext, totalMs: number) {
  return (elapsedMs: number) => void ctx.progress(Math.round(elapsedMs), totalMs, "running");
}

const timeoutArg = z.number().int().min(1).max(86_400_000);
const RUN = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** Running commands and long-running processes in panes' own shells. */
export const execTools = [
  defineTool({
    name: "execute_command",
    title: "Execute command",
    description: "Run a command in a pane's shell (default pane: `default`); returns its output and exit " +
      "code. cd/export persist; stdout is a terminal. Timeout: Ctrl-C (30 s default). " +
      "A question (prompt, editor, REPL) returns at once: outcome input.",
    profile: "agent",
    group: "exec",
    tier: "mutating",
    annotations: RUN,
    searchHint: "run a shell command in a tmux terminal",
    input: {
      pane_id: paneIdArg.optional(),
      command: commandArg.describe("shell text; may be multi-line"),
      timeout_ms: timeoutArg.optional(),
      cwd: cwdArg.optional(),
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      outcome: "exited, input (it waits for the terminal: answer with send_keys), timeout or shell_exited",
      output: "the command's own output (rendered text, within the budget: head and tail kept)",
      exit_code: "its exit status (the shell's, when the command ended it); null after a timeout or with input",
      timed_out: "the timeout fired and Ctrl-C was sent",
      duration_ms: "how long it ran",
      ...BUDGET_RESULT,
      interrupted: "after a timeout: whether Ctrl-C brought the shell back",
      shell_exited: "the command ended the shell itself (e.g. `exit`)",
      timeout_ms: "with timeout_clamped: the timeout used",
      timeout_clamped: "the requested timeout was above the maximum",
      cursor: "outcome input: capture_since / wait_for_text from here continue the command's output",
      pane_state: "outcome input: {command, kind: shell | repl | fullscreen | program, waiting_for_input}",
    },
    errors: {
      PANE_BUSY: "the pane runs a program, not a shell at its prompt",
      PANE_DEAD: "the pane's process has exited",
      ...PANE_END_ERRORS,
    },
    async handler(args, ctx) {
      await checkCwd(args.cwd);
      checkNoNul(args.command, "command");
      const { timeoutMs, clamped } = effectiveTimeout("execute_command", args.timeout_ms);
      const { pane, fresh } = await targetPane(ctx, args.pane_id);
      const result = await ctx.app.executor.execute(pane, args.command, {
        timeoutMs,
        startedAt: ctx.startedAt,
        fresh,
        cwd: args.cwd,
        signal: ctx.signal,
        onProgress: progress(ctx, timeoutMs),
        budget: budgetFrom(args.max_output),
      });
      return {
        ...paneIds(pane),
        outcome: result.outcome,
        output: result.output,
        exit_code: result.exitCode,
        timed_out: result.timedOut,
        duration_ms: result.durationMs,
        ...budgetFields(result),
        ...(result.interrupted === undefined ? {} : { interrupted: result.interrupted }),
        ...(result.shellExited ? { shell_exited: true } : {}),
        ...(clamped ? { timeout_ms: timeoutMs, timeout_clamped: true } : {}),
        ...(result.asker ? { cursor: result.cursor, pane_state: askerResult(result.asker) } : {}),
      };
    },
  }),
  defineTool({
    name: "start_process",
    title: "Start process",
    description: "Start a long-running command in a new owned pane (or pane_id's shell). With `ready` (regex), " +
      "wait until an output line matches, the process exits, or the timeout; `outcome` says which.",
    profile: "agent",
    group: "exec",
    tier: "mutating",
    annotations: RUN,
    input: {
      command: commandArg,
      name: nameArg.optional(),
      pane_id: paneIdArg.optional(),
      host: hostArg.optional(),
      ready: z.string().min(1).max(1000).optional().describe("regex for the ready line (RE2 syntax)"),
      timeout_ms: timeoutArg.optional(),
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      outcome: "started (no ready), ready, exited, input (it waits for terminal input) or timeout",
      matched_line: "with ready: the line that matched",
      exit_code: "outcome exited: the process's exit status",
      pane_dead: "outcome exited: the pane's own program ended too (the shell the command ran in)",
      signal: "with pane_dead, when a signal ended it: its number",
      last_lines: "exited, input or timeout: the last output lines (within max_output)",
      last_lines_truncated: "the budget cut last_lines: one element is a marker naming the call that returns them",
      elapsed_ms: "time until the outcome",
      timeout_ms: "with timeout_clamped: the timeout used",
      timeout_clamped: "the requested timeout was above the maximum",
      attach_command: "the tmux command a person runs to watch live",
    },
    errors: {
      INVALID_ARGUMENT: "`ready` is not a pattern the engine can compile, or both name and pane_id",
      NAME_IN_USE: "`name` is taken by another pane",
      PANE_BUSY: "pane_id runs a program, not a shell at its prompt",
      ...PANE_END_ERRORS,
    },
    async handler(args, ctx) {
      checkName(args.name);
      checkNoNul(args.command, "command");
      if (args.name !== undefined && args.pane_id !== undefined) {
        throw new ToolError("INVALID_ARGUMENT", "Give name (for a new pane) or pane_id (an existing one), not both");
      }
      const ready = args.ready === undefined
        ? undefined
        : await ctx.app.patterns.compile(args.ready, { what: "ready regex" });
      const { timeoutMs, clamped } = effectiveTimeout("start_process", args.timeout_ms);
      const given = args.pane_id === undefined ? undefined : await ctx.pane(args.pane_id);
      const result = await ctx.app.processes.start(ctx.workspace, args.command, {
        pane: given,
        name: args.name,
        ready,
        timeoutMs,
        startedAt: ctx.startedAt,
        signal: ctx.signal,
        onProgress: progress(ctx, timeoutMs),
        origin: ctx.origin,
      });
      ctx.paneId = result.pane.paneId;
      return {
        ...paneIds(result.pane),
        outcome: result.outcome,
        ...(result.matchedLine === undefined ? {} : { matched_line: result.matchedLine }),
        ...(result.outcome === "exited" ? { exit_code: result.exitCode } : {}),
        ...paneExitFields(result.paneExit && { ...result.paneExit, lastLines: result.lastLines ?? [] }),
        ...(result.lastLines === undefined
          ? {}
          : lastLinesFields(result.pane, result.lastLines, budgetFrom(args.max_output))),
        elapsed_ms: result.elapsedMs,
        ...(clamped ? { timeout_ms: timeoutMs, timeout_clamped: true } : {}),
        attach_command: ctx.workspace.attachCommand,
      };
    },
  }),
  defineTool({
    name: "stop_process",
    title: "Stop process",
    description: "Stop what runs in a pane (SIGINT = Ctrl-C by default) and verify it ended: `stopped`, exit_code, " +
      "last lines. Panes this server did not create need tier destructive.",
    profile: "agent",
    group: "exec",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      signal: z.enum(SIGNALS).optional(),
      timeout_ms: timeoutArg.optional().describe("how long to wait for it to end; default 5000"),
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      signal: "the signal sent",
      was_running: "something other than the shell ran",
      stopped: "it ended (end marker, the shell back, or the pane dead)",
      exit_code: "its exit status (130 after SIGINT, 143 SIGTERM, 137 SIGKILL), null if unknown",
      last_lines: "the process's last output lines (within max_output)",
      last_lines_truncated: "the budget cut last_lines: one element is a marker naming the call that returns them",
      elapsed_ms: "time until it ended",
      still_running: "not stopped: {command} still in the foreground",
      hint: "not stopped: the next signal to try",
      timeout_ms: "with timeout_clamped: the timeout used",
      timeout_clamped: "the requested timeout was above the maximum",
    },
    errors: {
      TIER_DENIED: "the pane was not created by this server and the tier is below destructive",
      PROTECTED_TARGET: "the pane tmuxwright runs in, or the workspace hub",
    },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertKillable(ctx, pane, "stop the process in");
      const signal = args.signal ?? "SIGINT";
      const { timeoutMs, clamped } = effectiveTimeout("stop_process", args.timeout_ms);
      const result = await ctx.app.processes.stop(pane, signal, timeoutMs, ctx.signal);
      return {
        ...paneIds(pane),
        signal,
        was_running: result.wasRunning,
        stopped: result.stopped,
        exit_code: result.exitCode,
        ...lastLinesFields(pane, result.lastLines, budgetFrom(args.max_output)),
        elapsed_ms: result.elapsedMs,
        ...(result.stillRunning
          ? {
            still_running: result.stillRunning,
            hint: signal === "SIGKILL"
              ? "It survived SIGKILL (uninterruptible?); kill_pane ends the pane."
              : "It did not stop; retry with signal SIGTERM or SIGKILL.",
          }
          : {}),
        ...(clamped ? { timeout_ms: timeoutMs, timeout_clamped: true } : {}),
      };
    },
  }),
];
