import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../register.ts";
import { paneIds } from "../results.ts";
import { ToolError } from "../../engine/errors.ts";
import { pasteText } from "../../engine/panes/paste.ts";
import { readScreen } from "../../engine/screen/snapshot.ts";
import { screenRuns, toHtml, toSvg } from "../../engine/screen/snapshot_render.ts";
import { checkName, commandArg, deadError, nameArg } from "./panes.ts";

export const screenTools = [
  defineTool({
    name: "paste_text",
    title: "Paste text",
    description: "Paste multi-line text (a script, a heredoc) as one terminal paste, bracketed by default, " +
      "so a shell takes it as one input; `enter` presses Enter afterwards.",
    profile: "agent",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      text: z.string().min(1).max(1_000_000),
      bracketed: z.boolean().optional(),
      enter: z.boolean().optional().describe("default false"),
    },
    async handler(args, ctx) {
      if (args.text.includes("\0")) {
        throw new ToolError("INVALID_ARGUMENT", "Invalid text: must not contain a NUL byte");
      }
      const pane = await ctx.pane(args.pane_id);
      if (pane.dead) throw deadError(pane, "paste into");
      await pasteText(ctx.tmux, pane.paneId, args.text, {
        bracketed: args.bracketed ?? true,
        enter: args.enter ?? false,
      });
      return { ...paneIds(pane), pasted_chars: args.text.length, enter: args.enter ?? false };
    },
  }),

  defineTool({
    name: "split_pane",
    title: "Split pane",
    description: "Split a pane and start an owned, logged pane beside it running the shell or `command`.",
    profile: "agent",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      direction: z.enum(["right", "below", "left", "above"]),
      size: z.number().int().min(1).max(99).optional().describe("percent of the split pane"),
      command: commandArg.optional(),
      name: nameArg.optional(),
    },
    async handler(args, ctx) {
      checkName(args.name);
      const from = await ctx.pane(args.pane_id);
      const { pane } = await ctx.workspace.createPane({
        splitFrom: from.paneId,
        direction: args.direction,
        size: args.size,
        command: args.command,
        name: args.name,
      });
      ctx.paneId = pane.paneId;
      return { ...paneIds(pane), pid: pane.pid, split_from: from.paneId, size: `${pane.width}x${pane.height}` };
    },
  }),

  defineTool({
    name: "snapshot_pane",
    title: "Snapshot pane",
    description: "The visible screen with cursor, mode, size, scroll position and history size; " +
      "`format` ansi keeps colours, html/svg render it as a person sees it.",
    profile: "agent",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { pane_id: paneIdArg, format: z.enum(["text", "ansi", "html", "svg"]).optional() },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      const format = args.format ?? "text";
      const screen = await readScreen(ctx.tmux, pane.paneId, format !== "text");
      const { state } = screen;
      let content: string;
      if (format === "html" || format === "svg") {
        const runs = await screenRuns(screen);
        content = format === "html" ? toHtml(screen, runs) : toSvg(screen, runs);
      } else {
        content = screen.rows.join("\n");
      }
      return {
        ...paneIds(pane),
        format,
        content,
        cursor: state.cursor,
        mode: state.mode,
        size: { width: state.width, height: state.height },
        scroll_position: state.scrollPosition,
        history_size: state.historySize,
        alternate_screen: state.alternateScreen,
        status: pane.dead ? "exited" : "running",
      };
    },
  }),
];
