import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg, windowArg } from "../args.ts";
import { assertPaneChangeable } from "../checks.ts";
import { paneIds, paneSummary } from "../results.ts";
import type { ToolContext } from "../context.ts";
import type { PaneInfo } from "../../engine/panes/mod.ts";
import { ToolError } from "../../engine/errors.ts";
import {
  CORNERS,
  paneAtCorner,
  paneBox,
  resizePane,
  resolveWindow,
  selectPane,
  swapPanes,
} from "../../engine/layout/mod.ts";

const CHANGE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const cells = z.number().int().min(1).max(10_000);
const delta = z.number().int().min(-10_000).max(10_000);

/** Everything about one pane: list_panes' fields plus place, mode and logging. */
async function paneInfo(ctx: ToolContext, pane: PaneInfo): Promise<Record<string, unknown>> {
  const box = await paneBox(ctx.tmux, pane.paneId);
  return {
    ...paneSummary(ctx.app, pane),
    window_index: pane.windowIndex,
    pane_index: pane.paneIndex,
    active: pane.active,
    in_mode: pane.inMode,
    ...(box ? { left: box.left, top: box.top, zoomed: box.zoomed } : {}),
    history_size: pane.historySize,
    logged: pane.logPath !== null,
    ...(pane.logPath ? { log_path: pane.logPath } : {}),
  };
}

/** Where panes are and which one is in front: info, select, swap, resize, find by corner. */
export const paneLayoutTools = [
  defineTool({
    name: "get_pane_info",
    title: "Pane info",
    description: "One pane: list_panes' fields plus index, active, in_mode, left/top, zoomed, logged.",
    profile: "all",
    group: "panes",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { pane_id: paneIdArg },
    async handler(args, ctx) {
      return await paneInfo(ctx, await ctx.pane(args.pane_id));
    },
  }),
  defineTool({
    name: "select_pane",
    title: "Select pane",
    description: "Make a pane active and its window current.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: { pane_id: paneIdArg },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertPaneChangeable(ctx, pane, "select");
      await selectPane(ctx.tmux, pane);
      return { ...paneIds(pane), active: true };
    },
  }),
  defineTool({
    name: "swap_pane",
    title: "Swap panes",
    description: "Swap the places of two panes (also across windows).",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: { pane_id: paneIdArg, other_pane_id: paneIdArg },
    async handler(args, ctx) {
      const [a, b] = [await ctx.pane(args.pane_id), await ctx.pane(args.other_pane_id)];
      assertPaneChangeable(ctx, a, "swap");
      assertPaneChangeable(ctx, b, "swap");
      await swapPanes(ctx.tmux, a, b);
      const [movedA, movedB] = [await ctx.pane(a.paneId), await ctx.pane(b.paneId)];
      return {
        panes: [movedA, movedB].map((p) => ({ ...paneIds(p), window_index: p.windowIndex, pane_index: p.paneIndex })),
      };
    },
  }),
  defineTool({
    name: "resize_pane",
    title: "Resize pane",
    description: "Set a pane's size in cells (width/height) or change it (dx/dy); zoom fills the window.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: {
      pane_id: paneIdArg,
      width: cells.optional(),
      height: cells.optional(),
      dx: delta.optional(),
      dy: delta.optional(),
      zoom: z.boolean().optional(),
    },
    async handler(args, ctx) {
      if ((args.width && args.dx) || (args.height && args.dy)) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "Cannot resize: give width or dx, height or dy, not both for one side",
          "get_pane_info shows the current size.",
        );
      }
      if (Object.keys(args).length === 1) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "Nothing to resize: give width, height, dx, dy or zoom",
          "get_pane_info shows the current size.",
        );
      }
      const pane = await ctx.pane(args.pane_id);
      assertPaneChangeable(ctx, pane, "resize");
      const zoomed = await resizePane(ctx.tmux, pane, args);
      const after = await ctx.pane(pane.paneId);
      return { ...paneIds(after), size: `${after.width}x${after.height}`, zoomed };
    },
  }),
  defineTool({
    name: "find_pane_by_position",
    title: "Find pane by position",
    description: "The pane at a corner of a window.",
    profile: "all",
    group: "panes",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { window: windowArg, corner: z.enum(CORNERS) },
    async handler(args, ctx) {
      const window = await resolveWindow(ctx.tmux, ctx.workspace, args.window);
      const pane = await ctx.pane(await paneAtCorner(ctx.tmux, window, args.corner));
      return { ...paneIds(pane), corner: args.corner, size: `${pane.width}x${pane.height}` };
    },
  }),
];
