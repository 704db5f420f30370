import * as z from "zod";
import { defineTool } from "../define.ts";
import { commandArg, cwdArg, paneIdArg } from "../args.ts";
import { assertKillable, assertPaneChangeable, checkCwd } from "../checks.ts";
import { paneIds } from "../results.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../engine/errors.ts";
import {
  clearPane,
  enterCopyMode,
  exitCopyMode,
  modeState,
  type PaneInfo,
  respawnPane,
  setPaneTitle,
  startPaneLog,
  stopPaneLog,
} from "../../engine/panes/mod.ts";
import * as patterns from "../../safety/patterns.ts";

const CHANGE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A pane any tier-allowed input may reach (like send_keys), except the workspace hub. */
async function inputPane(ctx: ToolContext, ref: string, action: string): Promise<PaneInfo> {
  const pane = await ctx.pane(ref);
  if (ctx.workspace.isHub(pane)) {
    throw new ToolError(
      "PROTECTED_TARGET",
      `Cannot ${action} pane ${pane.paneId}: it keeps the workspace session alive`,
      "Pick another pane with list_panes.",
    );
  }
  return pane;
}

async function modeResult(ctx: ToolContext, pane: PaneInfo) {
  const mode = await modeState(ctx.tmux, pane);
  return { ...paneIds(pane), in_mode: mode.inMode, scroll_position: mode.scroll };
}

/** What runs in a pane and what it shows: respawn, title, clear, durable log, copy mode. */
export const paneControlTools = [
  defineTool({
    name: "respawn_pane",
    title: "Respawn pane",
    description: "End a pane's process and start `command` (default: the shell) in the same pane.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    input: { pane_id: paneIdArg, command: commandArg.optional(), cwd: cwdArg.optional() },
    async handler(args, ctx) {
      await checkCwd(args.cwd);
      const pane = await ctx.pane(args.pane_id);
      assertKillable(ctx, pane, "respawn");
      const owned = ctx.workspace.isOwned(pane);
      await respawnPane(ctx.tmux, pane, ctx.app.config.shell, owned, args, ctx.app.gate);
      const after = await ctx.pane(pane.paneId);
      return { ...paneIds(after), pid: after.pid, previous_pid: pane.pid };
    },
  }),
  defineTool({
    name: "set_pane_title",
    title: "Set pane title",
    description: "Set the title tmux shows for a pane.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: { pane_id: paneIdArg, title: patterns.displayText(200) },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertPaneChangeable(ctx, pane, "set the title of");
      await setPaneTitle(ctx.tmux, pane, args.title);
      return { ...paneIds(pane), title: args.title };
    },
  }),
  defineTool({
    name: "clear_pane",
    title: "Clear pane",
    description: "Clear a pane's screen and scrollback (its log is kept).",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { pane_id: paneIdArg },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertPaneChangeable(ctx, pane, "clear");
      await clearPane(ctx.tmux, pane);
      return { ...paneIds(pane), cleared: true };
    },
  }),
  defineTool({
    name: "pipe_pane",
    title: "Log pane output",
    description: "Start (default) or stop a durable log of any pane's output, for read_logs, capture_since and waits.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: { pane_id: paneIdArg, stop: z.boolean().optional() },
    async handler(args, ctx) {
      const pane = await inputPane(ctx, args.pane_id, "log");
      const { config } = ctx.app;
      if (ctx.tmux.remote && !args.stop) {
        // pipe-pane would run its writer on the host; logs of remote panes are written here, from the link.
        throw new ToolError(
          "INVALID_ARGUMENT",
          `Cannot log pane ${pane.paneId} on host ${ctx.tmux.host}: only panes tmuxwright creates there are logged`,
          "Panes made with create_pane or start_process and host are logged from their first byte; read this one with capture_pane.",
        );
      }
      if (args.stop) {
        const { logPath, stopped } = await stopPaneLog(ctx.tmux, config, pane, ctx.workspace.isOwned(pane));
        return { ...paneIds(pane), logged: false, stopped, ...(logPath ? { log_path: logPath } : {}) };
      }
      const { logPath, started } = await startPaneLog(
        ctx.tmux,
        config,
        ctx.workspace.socketPath,
        ctx.workspace.instance,
        pane,
      );
      return { ...paneIds(pane), logged: true, started, log_path: logPath };
    },
  }),
  defineTool({
    name: "enter_copy_mode",
    title: "Enter copy mode",
    description: "Put a pane in copy mode, optionally scrolled up `scroll_up` lines. Keys typed into the pane later " +
      "leave copy mode first and go to its program.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: { pane_id: paneIdArg, scroll_up: z.number().int().min(0).max(1_000_000).optional() },
    async handler(args, ctx) {
      const pane = await inputPane(ctx, args.pane_id, "enter copy mode in");
      await enterCopyMode(ctx.tmux, pane, args.scroll_up);
      return await modeResult(ctx, pane);
    },
  }),
  defineTool({
    name: "exit_copy_mode",
    title: "Exit copy mode",
    description: "Leave copy mode.",
    profile: "all",
    group: "panes",
    tier: "mutating",
    annotations: CHANGE,
    input: { pane_id: paneIdArg },
    async handler(args, ctx) {
      const pane = await inputPane(ctx, args.pane_id, "exit copy mode in");
      await exitCopyMode(ctx.tmux, pane);
      return await modeResult(ctx, pane);
    },
  }),
];
