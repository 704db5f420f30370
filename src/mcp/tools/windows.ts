import { ToolError } from "../../engine/errors.ts";
import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { commandArg, cwdArg, newNameArg, sessionArg, windowArg } from "../args.ts";
import { assertChangeable, checkCwd } from "../checks.ts";
import { paneIds, startingField, windowSummary } from "../results.ts";
import type { ToolContext } from "../context.ts";
import {
  createWindow,
  killWindow,
  LAYOUTS,
  listWindows,
  moveWindow,
  renameWindow,
  resizeWindow,
  resolveSession,
  resolveWindow,
  selectLayout,
  selectWindow,
  type WindowInfo,
} from "../../engine/layout/mod.ts";
import * as patterns from "../../safety/patterns.ts";

const CHANGE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const indexArg = z.number().int().min(0).max(99_999);
const cells = z.number().int().min(1).max(10_000);

/** Resolves the window and applies the ownership rule for `action`; returns it with fresh facts. */
async function changeable(ctx: ToolContext, ref: string, action: string, self = false): Promise<WindowInfo> {
  const window = await resolveWindow(ctx.tmux, ctx.workspace, ref);
  await assertChangeable(ctx, { kind: "window", id: window.windowId, ...window }, action, self);
  return window;
}

const fresh = async (ctx: ToolContext, window: WindowInfo) =>
  windowSummary(await resolveWindow(ctx.tmux, ctx.workspace, window.windowId));

/** tmux windows: list, create, kill, rename, select, layout, resize, move. */
export const windowTools = [
  defineTool({
    name: "list_windows",
    title: "List windows",
    description: "Windows with ids, session:index, name, panes, size, layout, owned.",
    profile: "all",
    group: "windows",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { session: sessionArg.optional() },
    async handler(args, ctx) {
      let windows = await listWindows(ctx.tmux, ctx.workspace);
      if (args.session !== undefined) {
        const session = await resolveSession(ctx.tmux, ctx.workspace, args.session);
        windows = windows.filter((w) => w.sessionId === session.sessionId);
      }
      return { windows: windows.map(windowSummary) };
    },
  }),
  defineTool({
    name: "create_window",
    title: "Create window",
    description: "New window (default: in the workspace) with an owned, logged pane.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      session: sessionArg.optional(),
      index: indexArg.optional(),
      name: patterns.nameArg.optional(),
      command: commandArg.optional(),
      cwd: cwdArg.optional(),
    },
    async handler(args, ctx) {
      await checkCwd(args.cwd);
      const session = args.session === undefined
        ? undefined
        : await resolveSession(ctx.tmux, ctx.workspace, args.session);
      const { pane, starting } = await createWindow(ctx.workspace, {
        session,
        index: args.index,
        name: args.name,
        command: args.command,
        cwd: args.cwd,
        signal: ctx.signal,
      });
      ctx.paneId = pane.paneId;
      return { ...paneIds(pane), index: pane.windowIndex, ...startingField(starting) };
    },
  }),
  defineTool({
    name: "kill_window",
    title: "Kill window",
    description: "Close a window and its panes. Ours: tier mutating; others: destructive.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { window: windowArg },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "kill", true);
      await ctx.app.paneEnds.removing([window.windowId], "kill_window");
      await killWindow(ctx.tmux, window);
      return { window_id: window.windowId, session_id: window.sessionId, killed: true };
    },
  }),
  defineTool({
    name: "rename_window",
    title: "Rename window",
    description: "Rename a window.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: CHANGE,
    input: { window: windowArg, name: newNameArg },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "rename", true);
      await renameWindow(ctx.tmux, window, args.name);
      return await fresh(ctx, window);
    },
  }),
  defineTool({
    name: "select_window",
    title: "Select window",
    description: "Make a window its session's current one.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: CHANGE,
    input: { window: windowArg },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "select");
      await selectWindow(ctx.tmux, window);
      return await fresh(ctx, window);
    },
  }),
  defineTool({
    name: "select_layout",
    title: "Select layout",
    description: "Arrange a window's panes: a preset or a layout string from list_windows.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: CHANGE,
    input: {
      window: windowArg,
      layout: z.string().max(4000).refine(
        (v) => (LAYOUTS as readonly string[]).includes(v) || patterns.LAYOUT.test(v),
        {
          message: `expected ${LAYOUTS.join(", ")} or a layout string`,
        },
      ).describe(LAYOUTS.join("|")),
    },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "change the layout of");
      await selectLayout(ctx.tmux, window, args.layout);
      return await fresh(ctx, window);
    },
  }),
  defineTool({
    name: "resize_window",
    title: "Resize window",
    description: "Set a window's size in cells.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: CHANGE,
    input: { window: windowArg, width: cells.optional(), height: cells.optional() },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "resize");
      await resizeWindow(ctx.tmux, window, args.width, args.height);
      return await fresh(ctx, window);
    },
  }),
  defineTool({
    name: "move_window",
    title: "Move window",
    description: "Move a window to another session, or to another index; without session it stays in its own.",
    profile: "all",
    group: "windows",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: {
      window: windowArg,
      session: sessionArg.optional().describe("session name or $N (default: the window's own)"),
      index: indexArg.optional(),
    },
    async handler(args, ctx) {
      const window = await changeable(ctx, args.window, "move");
      if (args.session === undefined && args.index === undefined) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          `Nothing to move window ${window.windowId} to: neither session nor index was given`,
          "Pass session (another session), index (a new index in its session), or both.",
        );
      }
      const session = await resolveSession(ctx.tmux, ctx.workspace, args.session ?? window.sessionId);
      await moveWindow(ctx.tmux, window, session, args.index);
      return await fresh(ctx, window);
    },
  }),
];
