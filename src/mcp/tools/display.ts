import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { paneIds } from "../results.ts";
import { ToolError } from "../../engine/errors.ts";
import { evaluateFormat, notifyClients } from "../../engine/display/mod.ts";
import * as patterns from "../../safety/patterns.ts";

/** What tmux shows: formats for the agent, messages and notes for the person watching. */
export const displayTools = [
  defineTool({
    name: "display_message",
    title: "Evaluate format",
    description: "Evaluate a tmux format like '#{pane_current_path} #{window_layout}' for a pane. " +
      "#( ), E:, T: and regex modifiers are refused.",
    profile: "all",
    group: "display",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { format: patterns.formatArg, pane_id: paneIdArg.optional() },
    async handler(args, ctx) {
      const pane = args.pane_id === undefined ? null : await ctx.pane(args.pane_id);
      const value = await evaluateFormat(ctx.tmux, args.format, pane?.paneId);
      return { ...(pane ? paneIds(pane) : {}), value };
    },
  }),
  defineTool({
    name: "write_to_display",
    title: "Write to display",
    description: "Show text to the person watching, in a side pane of the workspace; not returned to you. " +
      "`clear` empties it first.",
    profile: "all",
    group: "display",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: { text: z.string().max(100_000).optional(), clear: z.boolean().optional() },
    async handler(args, ctx) {
      if (args.text === undefined && !args.clear) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "Nothing to show: give text, clear: true, or both",
          "notify shows a short message in the status line instead.",
        );
      }
      const pane = await ctx.app.display.write(ctx.workspace, args.text ?? "", args.clear ?? false);
      ctx.paneId = pane.paneId;
      return { ...paneIds(pane), chars: args.text?.length ?? 0, cleared: args.clear ?? false };
    },
  }),
  defineTool({
    name: "notify",
    title: "Notify",
    description: "Show a message in the status line of every client a person has attached (says when none is).",
    profile: "all",
    group: "display",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: {
      text: patterns.displayText(500).refine((v) => v.trim() !== "", { message: "must not be empty" }),
      duration_ms: z.number().int().min(100).max(60_000).optional().describe("default 4000"),
    },
    async handler(args, ctx) {
      const { clients } = await notifyClients(ctx.tmux, args.text, args.duration_ms ?? 4000);
      return {
        delivered: clients.length > 0,
        clients,
        ...(clients.length === 0 ? { note: "no client is attached: nobody saw it; write_to_display keeps notes" } : {}),
      };
    },
  }),
];
