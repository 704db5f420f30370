import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { commandArg, cwdArg, DIRECTIONS, nameArg, paneIdArg } from "../args.ts";
import { assertKillable, checkCwd, checkName } from "../checks.ts";
import { paneIds, paneSummary, RESULT_PANE_IDS, RESULT_STARTING, startingField } from "../results.ts";
import { hostArg } from "../hosts.ts";
import { listPanes } from "../../engine/panes/mod.ts";
import * as patterns from "../../safety/patterns.ts";

/** Creating, listing, splitting and killing panes. */
export const paneTools = [
  defineTool({
    name: "create_pane",
    title: "Create pane",
    description: "Open a pane (new window, or split_from) running the user's shell or `command`; " +
      "`env` wins over the defaults (PAGER=cat). Logged from the first byte, readable after exit. " +
      "With `host`, ids read HOST:%N.",
    profile: "core",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      command: commandArg.optional().describe("instead of a shell"),
      name: nameArg.optional(),
      cwd: cwdArg.optional(),
      env: z.record(patterns.envNameArg, z.string().max(32_768)).optional(),
      login: z.boolean().optional().describe("login shell"),
      split_from: paneIdArg.optional(),
      direction: z.enum(DIRECTIONS).optional().describe("with split_from; default below"),
      host: hostArg.optional(),
    },
    result: {
      ...RESULT_PANE_IDS,
      pid: "the pane's process id",
      attach_command: "the tmux command a person runs to watch the workspace live",
      ...RESULT_STARTING,
    },
    errors: { NAME_IN_USE: "`name` is taken by another pane", INVALID_ARGUMENT: "`cwd` is missing or not a directory" },
    async handler(args, ctx) {
      checkName(args.name);
      await checkCwd(args.cwd);
      const splitFrom = args.split_from === undefined ? undefined : (await ctx.pane(args.split_from)).paneId;
      const { pane, starting } = await ctx.workspace.createPane({
        command: args.command,
        name: args.name,
        cwd: args.cwd,
        env: args.env,
        login: args.login,
        splitFrom,
        direction: args.direction,
        signal: ctx.signal,
      });
      ctx.paneId = pane.paneId;
      return {
        ...paneIds(pane),
        pid: pane.pid,
        attach_command: ctx.workspace.attachCommand,
        ...startingField(starting),
      };
    },
  }),
  defineTool({
    name: "list_panes",
    title: "List panes",
    description: "List panes with ids, name, status running/exited (+exit_code), command, pid, cwd, size.",
    profile: "core",
    group: "panes",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      session: patterns.sessionRef.optional().describe("session name or $id"),
      owned_only: z.boolean().optional().describe("only panes this server created"),
      host: hostArg.optional(),
    },
    result: {
      panes: "one entry per pane: ids and name, title, status (running/exited), exit_code (exited panes), command, " +
        "pid, cwd, size (WxH), owned (created by this server), is_caller (the pane tmuxwright runs in)",
    },
    async handler(args, ctx) {
      let panes = await listPanes(ctx.tmux);
      if (args.session !== undefined) {
        panes = panes.filter((p) => p.sessionName === args.session || p.sessionId === args.session);
      }
      if (args.owned_only) panes = panes.filter((p) => ctx.workspace.isOwned(p));
      return { panes: panes.filter((p) => !ctx.workspace.isHub(p)).map((p) => paneSummary(ctx.app, p)) };
    },
  }),
  defineTool({
    name: "kill_pane",
    title: "Kill pane",
    description: "Close a pane and end its process. Panes this server created need tier mutating; others destructive.",
    profile: "core",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { pane_id: paneIdArg },
    result: { ...RESULT_PANE_IDS, killed: "true" },
    errors: {
      TIER_DENIED: "the pane was not created by this server and the tier is below destructive",
      PROTECTED_TARGET: "the pane tmuxwright runs in, or the workspace hub",
    },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertKillable(ctx, pane, "kill");
      await ctx.app.paneEnds.removing([pane.paneId], "kill_pane");
      await ctx.tmux.guarded([["kill-pane", "-t", pane.paneId]]);
      return { ...paneIds(pane), killed: true };
    },
  }),
  defineTool({
    name: "split_pane",
    title: "Split pane",
    description: "Split a pane and start an owned, logged pane beside it running the shell or `command`.",
    profile: "agent",
    group: "panes",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      direction: z.enum(DIRECTIONS),
      size: z.number().int().min(1).max(99).optional().describe("percent of the split pane"),
      command: commandArg.optional(),
      name: nameArg.optional(),
    },
    result: {
      ...RESULT_PANE_IDS,
      pid: "the new pane's process id",
      split_from: "the pane that was split",
      size: "the new pane's size, WxH",
      ...RESULT_STARTING,
    },
    errors: { NAME_IN_USE: "`name` is taken by another pane" },
    async handler(args, ctx) {
      checkName(args.name);
      const from = await ctx.pane(args.pane_id);
      const { pane, starting } = await ctx.workspace.createPane({
        splitFrom: from.paneId,
        direction: args.direction,
        size: args.size,
        command: args.command,
        name: args.name,
        signal: ctx.signal,
      });
      ctx.paneId = pane.paneId;
      const size = `${pane.width}x${pane.height}`;
      return { ...paneIds(pane), pid: pane.pid, split_from: from.paneId, size, ...startingField(starting) };
    },
  }),
];
