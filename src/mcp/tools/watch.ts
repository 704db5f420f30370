import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { paneIds, RESULT_PANE_IDS } from "../results.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../engine/errors.ts";
import {
  awaitReplPrompt,
  captureSince,
  decodeCursor,
  DEFAULT_TRIGGERS,
  MAX_WAIT_MS,
  parseTriggers,
  probePaneStatus,
  runInRepl,
  type WaitEnd,
  waitForOutput,
  watchPane,
} from "../../engine/watch/mod.ts";
import { checkNoNul, cursorFor, deadError } from "../checks.ts";
import { stateResult } from "../results.ts";
import { inputFields } from "../question.ts";
import { PATTERN_SYNTAX_HELP } from "../../patterns/mod.ts";
import { logSize } from "../../engine/output/mod.ts";
import { BUDGET_RESULT, budgetFields, budgetFrom, callText, fitShown, maxOutputArg } from "../budget.ts";
import { exitFields, PANE_END_ERRORS, PANE_EXIT_RESULT, paneExitFields } from "../pane_end.ts";
import { AGENT_TURN_RESULT, agentTurnCall } from "../agent_repl.ts";

const timeoutArg = z.number().int().min(0).optional();
const WAITING = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** Clamps a requested timeout; the value used is reported in the result. */
function timeout(requested: number | undefined, fallback: number): { timeoutMs: number; clamped?: true } {
  const value = requested ?? fallback;
  return value > MAX_WAIT_MS ? { timeoutMs: MAX_WAIT_MS, clamped: true } : { timeoutMs: value };
}

/** Progress at most once per second while a wait runs, when the client asked for it. */
function progress(ctx: ToolContext, what: string) {
  return (elapsedMs: number, totalMs: number) => {
    void ctx.progress(elapsedMs, totalMs, `${what}: ${Math.round(elapsedMs / 1000)} s`);
  };
}

function cancelled(end: WaitEnd<unknown>): void {
  if (end.kind === "cancelled") throw new ToolError("CANCELLED", `Wait cancelled after ${end.elapsedMs} ms`);
}

export const watchTools = [
  defineTool({
    name: "wait_for_text",
    title: "Wait for text",
    description:
      "Wait until a line of NEW output contains `pattern` (never text already shown or a just-typed command's " +
      'echo; since:"screen" adds the visible screen; `cursor` starts at a send_keys/capture_since cursor). ' +
      "A timeout returns matched:false; the pane's exit ends it at once (trigger exit).",
    profile: "agent",
    group: "watch",
    tier: "readonly",
    annotations: WAITING,
    input: {
      pane_id: paneIdArg,
      pattern: z.string().min(1).max(10_000),
      regex: z.boolean().optional().describe(`pattern is a regex: ${PATTERN_SYNTAX_HELP}`),
      timeout_ms: timeoutArg.describe("default 30000"),
      since: z.enum(["now", "screen"]).optional(),
      cursor: z.string().min(1).max(2_000).optional().describe("start there (from send_keys, capture_since)"),
    },
    result: {
      ...RESULT_PANE_IDS,
      matched: "a line matched",
      line: "the line that matched",
      match: "the matched text",
      from: "output (new output) or screen (since: screen)",
      timed_out: "no match within the timeout (matched false)",
      ...PANE_EXIT_RESULT,
      last_lines: "on a timeout or exit: the last 20 non-blank lines shown",
      elapsed_ms: "time until the match, the exit or the timeout",
      timeout_ms: "the timeout used, when the request was clamped",
    },
    errors: { INVALID_ARGUMENT: "`pattern` is not a pattern the engine can compile", ...PANE_END_ERRORS },
    async handler(args, ctx) {
      const pattern = await ctx.app.patterns.compile(args.pattern, { regex: args.regex ?? false });
      const pane = await ctx.pane(args.pane_id, { recent: true });
      const from = args.cursor === undefined ? undefined : cursorFor(pane, args.cursor, args.since);
      const limit = timeout(args.timeout_ms, 30_000);
      const { end, lastLines } = await waitForOutput(ctx.app, pane, pattern, {
        timeoutMs: limit.timeoutMs,
        signal: ctx.signal,
        onProgress: progress(ctx, `waiting for ${JSON.stringify(args.pattern.slice(0, 40))}`),
        since: args.since,
        from,
      });
      cancelled(end);
      const base = {
        ...paneIds(pane),
        elapsed_ms: end.elapsedMs,
        ...(limit.clamped ? { timeout_ms: limit.timeoutMs } : {}),
      };
      if (end.kind === "done") {
        return { ...base, matched: true, line: end.value.line, match: end.value.match, from: end.value.from };
      }
      if (end.kind === "exited") return { ...base, matched: false, ...exitFields(end.exit), last_lines: lastLines };
      return { ...base, matched: false, timed_out: true, last_lines: lastLines };
    },
  }),

  defineTool({
    name: "pane_state",
    title: "Pane state",
    description: "The pane's process from the OS: pid, foreground process, alive/exit_code, " +
      "waiting_for_input (null: the OS cannot tell; see reason).",
    profile: "agent",
    group: "watch",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { pane_id: paneIdArg },
    result: {
      ...RESULT_PANE_IDS,
      alive: "the pane's process runs",
      exit_code: "dead panes: the exit status",
      pid: "the pane's process id",
      foreground_pid: "the terminal's foreground process",
      foreground_command: "its name",
      foreground_cmdline: "its command line",
      at_shell_prompt: "a shell waits at its prompt",
      waiting_for_input: "true/false: the foreground process reads the terminal; null: the OS cannot tell",
      reason: "how waiting_for_input was decided",
      status: "{state: running|idle|waiting|exited, command, exit_code, needs_person} as /watch shows it; an agent " +
        "CLI in front adds agent_cli {id, name, activity: working|idle|asking, question}",
    },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      const question = ctx.app.gate.questions.list().some((q) => q.pane === pane.paneId && q.host === ctx.tmux.host);
      const { process, status } = await probePaneStatus(ctx.app.proc, ctx.tmux, pane, { question });
      return { ...paneIds(pane), ...stateResult(process), status };
    },
  }),

  defineTool({
    name: "watch_pane",
    title: "Watch pane",
    description: "Wait for the first of several triggers: exit, shell (back at prompt), input (process reads the " +
      "terminal), error, bell, idle:SECONDS, change, pattern:REGEX (RE2); the pane's exit always ends it.",
    profile: "agent",
    group: "watch",
    tier: "readonly",
    annotations: WAITING,
    input: {
      pane_id: paneIdArg,
      triggers: z.array(z.string().min(1).max(2_000)).min(1).max(16).optional().describe(
        "default exit, shell, input, error",
      ),
      timeout_ms: timeoutArg.describe("default 60000"),
    },
    result: {
      ...RESULT_PANE_IDS,
      trigger: "the trigger that fired, or timeout",
      fired: "a trigger fired",
      already: "exit, shell or input: the state already held when the call began",
      exit_code:
        "with exit: the status of the process the pane was started for (null: not reported); with shell in a shell tmuxwright started: the status of the command that ended",
      line: "pattern or error: the line that fired",
      elapsed_ms: "time until it fired",
      timeout_ms: "the timeout used, when the request was clamped",
      output: "new output since the call began (last 200 lines / 16,000 characters)",
      output_truncated: "older output lines were dropped",
      state: "the pane state at the end (as pane_state)",
      signal: "with exit, when the pane's program was killed by a signal: its number",
      pane_dead: "with exit: the pane's own program ended (the pane stays, dead)",
      last_lines: "with pane_dead: the last 20 non-blank lines the pane shows",
    },
    errors: { INVALID_ARGUMENT: "a trigger is malformed or its pattern cannot be compiled", ...PANE_END_ERRORS },
    async handler(args, ctx) {
      const triggers = await parseTriggers(
        args.triggers ?? DEFAULT_TRIGGERS,
        (source, options) => ctx.app.patterns.compile(source, options),
      );
      const pane = await ctx.pane(args.pane_id);
      const limit = timeout(args.timeout_ms, 60_000);
      const result = await watchPane(ctx.app, pane, triggers, {
        timeoutMs: limit.timeoutMs,
        signal: ctx.signal,
        onProgress: progress(ctx, "watching"),
        origin: ctx.origin,
      });
      if (result.trigger === "cancelled") {
        throw new ToolError("CANCELLED", `Watch cancelled after ${result.elapsedMs} ms`);
      }
      return {
        ...paneIds(pane),
        trigger: result.trigger,
        fired: result.trigger !== "timeout",
        ...(result.already ? { already: true } : {}),
        ...(result.exitCode !== undefined ? { exit_code: result.exitCode } : {}),
        ...(result.line !== undefined ? { line: result.line } : {}),
        elapsed_ms: result.elapsedMs,
        ...(limit.clamped ? { timeout_ms: limit.timeoutMs } : {}),
        output: result.output,
        output_truncated: result.outputTruncated,
        state: { ...stateResult(result.state), ...(result.state.gone ? { pane_gone: true } : {}) },
        ...paneExitFields(result.paneExit),
      };
    },
  }),

  defineTool({
    name: "capture_since",
    title: "Capture since",
    description: "Incremental read: with pane_id, the visible screen and a cursor; with that cursor, only lines " +
      "written since (also after the pane exited), plus a new cursor.",
    profile: "agent",
    group: "watch",
    tier: "readonly",
    annotations: { ...READ_ONLY, idempotentHint: false },
    input: {
      pane_id: paneIdArg.optional(),
      cursor: z.string().min(1).max(2_000).optional(),
    },
    result: {
      ...RESULT_PANE_IDS,
      text: "first read: the visible screen; later reads: complete lines written since the cursor",
      pending: "the unfinished last line (a prompt); it comes again, complete, next time",
      cursor: "pass it to the next call",
      lines_missed: "history was trimmed or cleared: text is the visible screen",
      truncated: "more than 512 KiB since the cursor: the last part is returned",
      first: "this was a first read (with pane_id)",
    },
    errors: {
      INVALID_ARGUMENT: "neither or both of pane_id and cursor, a malformed cursor, or the pane was respawned",
    },
    async handler(args, ctx) {
      if ((args.pane_id === undefined) === (args.cursor === undefined)) {
        throw new ToolError("INVALID_ARGUMENT", "Give either pane_id (first read) or cursor (later reads)");
      }
      const cursor = args.cursor === undefined ? null : decodeCursor(args.cursor);
      const pane = await ctx.pane(cursor?.p ?? args.pane_id!);
      const result = await captureSince(ctx.tmux, pane, ctx.app.output.followsLog(pane), cursor);
      await ctx.app.audit.capture(pane.paneId, result.text);
      return {
        ...paneIds(pane),
        text: result.text,
        pending: result.pending,
        cursor: result.cursor,
        lines_missed: result.linesMissed,
        truncated: result.truncated,
        first: result.first,
      };
    },
  }),

  defineTool({
    name: "run_in_repl",
    title: "Run in REPL",
    description: "Send one input to a REPL (python3, node, psql) and return the output up to the next `prompt` " +
      "(RE2 regex, e.g. '^>>> $'), without the echo. Multi-line input is pasted whole (open blocks closed); " +
      "waiting_for_more: the REPL wants more; outcome input: the input asks; exited: the REPL ended. " +
      "Agent CLIs (Claude Code, Codex CLI, Gemini CLI): omit prompt; returns the turn's reply when it ends, or " +
      "outcome input with its question to its person; without input, waits for/reads the current or last turn.",
    profile: "agent",
    group: "watch",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      input: z.string().min(1).max(100_000).optional().describe("required with prompt"),
      prompt: z.string().min(1).max(1_000).optional().describe("the REPL's prompt; omit for an agent CLI"),
      timeout_ms: timeoutArg.describe("default 30000"),
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      output: "the output of the input, without its echo and the next prompt (within max_output)",
      ...BUDGET_RESULT,
      outcome: "input: the input asks a question (the REPL reads the terminal without its prompt); exited: the REPL " +
        "ended (with exit_code, signal, pane_dead, last_lines)",
      pane_state: "with outcome input: {command, kind, waiting_for_input}",
      prompt_seen: "the prompt came back",
      waiting_for_more: "the REPL shows its continuation prompt: it wants the rest of the input",
      hint: "with waiting_for_more: what to do next",
      timed_out: "no prompt within the timeout",
      ...PANE_EXIT_RESULT,
      last_lines: "with outcome exited: the last 20 non-blank lines the pane shows",
      elapsed_ms: "time until the prompt",
      ...AGENT_TURN_RESULT,
    },
    errors: {
      INVALID_ARGUMENT: "`prompt` is not a pattern the engine can compile; no `prompt` and no agent CLI in front; " +
        "`prompt` without `input`",
      PANE_DEAD: "the pane's process has exited",
      ...PANE_END_ERRORS,
    },
    async handler(args, ctx) {
      if (args.prompt === undefined) {
        if (args.input !== undefined) checkNoNul(args.input, "input");
        const pane = await ctx.pane(args.pane_id, { recent: true });
        if (pane.dead) throw deadError(pane, "send input to");
        const { timeoutMs } = timeout(args.timeout_ms, 30_000);
        return await agentTurnCall(ctx, pane, { input: args.input, timeoutMs, maxOutput: args.max_output });
      }
      const prompt = await ctx.app.patterns.compile(args.prompt, { what: "prompt regex" });
      if (args.input === undefined) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "Cannot run a REPL turn without `input`",
          "Give `input` with `prompt`.",
        );
      }
      checkNoNul(args.input, "input");
      const pane = await ctx.pane(args.pane_id, { recent: true });
      if (pane.dead) throw deadError(pane, "send input to");
      const limit = timeout(args.timeout_ms, 30_000);
      const logged = ctx.app.output.followsLog(pane);
      // A REPL still starting is waited for; a warm one is seen ready in its log (a remote pane's too).
      await awaitReplPrompt(
        ctx.app.tmux,
        pane,
        prompt,
        limit.timeoutMs,
        ctx.signal,
        pane.logPath ?? undefined,
      );
      const before = logged ? await logSize(pane.logPath!) : 0;
      const turn = await runInRepl(ctx.app, pane, args.input, prompt, {
        timeoutMs: limit.timeoutMs,
        signal: ctx.signal,
        onProgress: progress(ctx, "waiting for the prompt"),
      });
      cancelled(turn.end);
      const more = turn.end.kind === "done" && turn.end.value === "more";
      const after = logged ? await logSize(pane.logPath!) : 0;
      // The whole turn's raw bytes (echo and prompt too) hold what the budget left out.
      const shown = fitShown(
        turn.output === "" ? [] : turn.output.split("\n"),
        budgetFrom(args.max_output),
        (_, total) =>
          logged
            ? callText("read_logs", {
              pane_id: pane.paneId,
              from_byte: before,
              max_bytes: Math.min(after - before, 1 << 20),
            })
            : callText("capture_pane", { pane_id: pane.paneId, lines: 10_000, max_output: total + 1024 }),
      );
      const asks = turn.end.kind === "done" && turn.end.value === "input";
      return {
        ...paneIds(pane),
        ...(asks ? await inputFields(ctx, pane) : {}),
        output: shown.lines.join("\n"),
        ...budgetFields(shown.facts),
        prompt_seen: turn.end.kind === "done" && turn.end.value === "prompt",
        ...(more
          ? {
            waiting_for_more: true,
            hint: "The REPL shows its continuation prompt: send the rest of the input, or send_keys C-c to drop it.",
          }
          : {}),
        ...(turn.end.kind === "timeout" ? { timed_out: true } : {}),
        ...(turn.end.kind === "exited"
          ? { outcome: "exited", ...exitFields(turn.end.exit), last_lines: turn.lastLines ?? [] }
          : {}),
        elapsed_ms: turn.end.elapsedMs,
      };
    },
  }),
];
