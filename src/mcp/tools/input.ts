import * as z from "zod";
import { defineTool } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { checkNoNul, deadError } from "../checks.ts";
import { paneIds, RESULT_PANE_IDS } from "../results.ts";
import { ToolError } from "../../engine/errors.ts";
import { KEY_FORMS_HELP, normalizeKey } from "../../tmux/keys.ts";
import * as patterns from "../../safety/patterns.ts";
import { SEND_WAIT_RESULT, sendAndWait, waitArg, waitTimeoutArg } from "../send_wait.ts";
import { PANE_END_ERRORS } from "../pane_end.ts";
import { BUDGET_RESULT, maxOutputArg } from "../budget.ts";

/** Typing into panes: keys and literal text, and multi-line pastes. */
export const inputTools = [
  defineTool({
    name: "send_keys",
    title: "Send keys",
    description: "Type `text` literally and/or press `keys` (tmux names: Enter, C-c, Up, F5; ^C = C-c). " +
      "`enter` defaults to true with text, false with keys only. `wait` returns what it caused in the same call.",
    profile: "core",
    group: "input",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      text: z.string().max(1_000_000).optional(),
      keys: z.array(patterns.keyArg).max(256).optional(),
      enter: z.boolean().optional(),
      wait: waitArg,
      timeout_ms: waitTimeoutArg,
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      sent: "what was sent: text_chars, keys, enter",
      ...SEND_WAIT_RESULT,
      ...BUDGET_RESULT,
    },
    errors: { INVALID_ARGUMENT: "neither text nor keys, or a key name tmux does not know", ...PANE_END_ERRORS },
    async handler(args, ctx) {
      if (args.text === undefined && (args.keys === undefined || args.keys.length === 0)) {
        throw new ToolError("INVALID_ARGUMENT", "Nothing to send: give text, keys, or both");
      }
      const keys = (args.keys ?? []).map((key, i) => {
        const normalized = normalizeKey(key);
        if (normalized === null) {
          // keys are payloads (audit-redacted), so the value is not echoed back.
          throw new ToolError("INVALID_ARGUMENT", `Unknown key name at keys[${i}]: ${KEY_FORMS_HELP}`);
        }
        return normalized;
      });
      checkNoNul(args.text, "text");
      const pane = await ctx.pane(args.pane_id, { recent: true });
      if (pane.dead) throw deadError(pane, "send keys to");
      const enter = args.enter ?? args.text !== undefined;
      await ctx.app.gate.checkTyping(pane, ctx.tmux.host, [
        ...(args.text ? [{ text: args.text }] : []),
        ...keys.map((key) => ({ key })),
        ...(enter ? [{ key: "Enter" }] : []),
      ]);
      const commands: string[][] = [];
      if (args.text) commands.push(["send-keys", "-t", pane.paneId, "-l", "--", args.text]);
      if (keys.length > 0) commands.push(["send-keys", "-t", pane.paneId, "--", ...keys]);
      if (enter) commands.push(["send-keys", "-t", pane.paneId, "Enter"]);
      // The echo of typed text (a line the Enter ends) is not what the input caused.
      const endsLine = enter || keys.some((k) => k === "Enter" || k === "C-m" || k === "C-j");
      const echoLines = args.text || endsLine ? 1 : 0;
      const waited = await sendAndWait(ctx, pane, () => ctx.tmux.batch(commands).then(() => {}), {
        wait: args.wait,
        timeoutMs: args.timeout_ms,
        maxOutput: args.max_output,
        echoLines,
        endsLine,
      });
      return { ...paneIds(pane), sent: { text_chars: args.text?.length ?? 0, keys, enter }, ...waited };
    },
  }),
  defineTool({
    name: "paste_text",
    title: "Paste text",
    description: "Paste multi-line text (a script, a heredoc) as one terminal paste, bracketed by default, " +
      "so a shell takes it as one input; `enter` presses Enter afterwards.",
    profile: "agent",
    group: "input",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      text: z.string().min(1).max(1_000_000),
      bracketed: z.boolean().optional(),
      enter: z.boolean().optional().describe("default false"),
      wait: waitArg,
      timeout_ms: waitTimeoutArg,
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      pasted_chars: "characters pasted",
      enter: "whether Enter followed",
      ...SEND_WAIT_RESULT,
      ...BUDGET_RESULT,
    },
    errors: { PANE_DEAD: "the pane's process has exited", ...PANE_END_ERRORS },
    async handler(args, ctx) {
      checkNoNul(args.text, "text");
      const pane = await ctx.pane(args.pane_id);
      if (pane.dead) throw deadError(pane, "paste into");
      await ctx.app.gate.checkTyping(pane, ctx.tmux.host, [
        { text: args.text, bracketed: args.bracketed ?? true },
        ...(args.enter ? [{ key: "Enter" }] : []),
      ]);
      const paste = async () => {
        await ctx.app.paster.paste(pane.paneId, args.text, {
          bracketed: args.bracketed ?? true,
          enter: args.enter ?? false,
        });
      };
      // Each pasted line is echoed once a newline (or Enter) ends it.
      const newlines = args.text.split("\n").length - 1;
      const waited = await sendAndWait(ctx, pane, paste, {
        wait: args.wait,
        timeoutMs: args.timeout_ms,
        maxOutput: args.max_output,
        echoLines: newlines + (args.enter ? 1 : 0),
        endsLine: newlines > 0 || args.enter === true,
      });
      return { ...paneIds(pane), pasted_chars: args.text.length, enter: args.enter ?? false, ...waited };
    },
  }),
];
