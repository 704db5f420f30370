import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg, sessionArg, windowArg } from "../args.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../engine/errors.ts";
import { resolveSession, resolveWindow } from "../../engine/layout/mod.ts";
import {
  optionProblem,
  type OptionTarget,
  SCOPES,
  setEnvironment,
  setOption,
  showEnvironment,
  showHooks,
  showOption,
} from "../../engine/settings/mod.ts";
import * as patterns from "../../safety/patterns.ts";

const targets = {
  session: sessionArg.optional(),
  window: windowArg.optional(),
  pane_id: paneIdArg.optional(),
};
const scopeArg = z.enum(SCOPES).optional().describe("default: from the option name");
const UNSET_HINT = 'For example {"name": "X", "value": "1"} or {"name": "X", "unset": true}.';
const SET = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

interface Resolved {
  target: OptionTarget;
  /** Ids for the result. */
  ids: Record<string, string>;
  /** Every pane in the target was created by this server. */
  owned: boolean;
}

/** At most one of session, window, pane_id; none means the global value. */
async function resolveTarget(
  ctx: ToolContext,
  args: { session?: string; window?: string; pane_id?: string },
): Promise<Resolved> {
  const given = [args.session, args.window, args.pane_id].filter((v) => v !== undefined).length;
  if (given > 1) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      "Give at most one of session, window and pane_id",
      "Pick the one whose option it is; none means the global value.",
    );
  }
  if (args.pane_id !== undefined) {
    const pane = await ctx.pane(args.pane_id);
    const owned = ctx.workspace.isOwned(pane) && !ctx.workspace.isHub(pane);
    return { target: { kind: "pane", id: pane.paneId }, ids: { pane_id: pane.paneId }, owned };
  }
  if (args.window !== undefined) {
    const window = await resolveWindow(ctx.tmux, ctx.workspace, args.window);
    return {
      target: { kind: "window", id: window.windowId },
      ids: { window_id: window.windowId },
      owned: window.owned,
    };
  }
  if (args.session !== undefined) {
    const session = await resolveSession(ctx.tmux, ctx.workspace, args.session);
    return {
      target: { kind: "session", id: session.sessionId },
      ids: { session_id: session.sessionId },
      owned: session.owned,
    };
  }
  return { target: null, ids: {}, owned: false };
}

/** tmux options, the environment new panes get, and hooks (read only). */
export const settingTools = [
  defineTool({
    name: "show_option",
    title: "Show option",
    description: "An option's value (with a target: effective, `inherited` marked), or all without name; " +
      "no target = global.",
    profile: "all",
    group: "settings",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { name: patterns.optionNameArg.optional(), scope: scopeArg, ...targets },
    async handler(args, ctx) {
      const { target, ids } = await resolveTarget(ctx, args);
      return { ...ids, ...await showOption(ctx.tmux, args.scope, target, args.name) };
    },
  }),
  defineTool({
    name: "set_option",
    title: "Set option",
    description: "Set or `unset` an option; no target = global. Ours: tier mutating; global or others': destructive.",
    profile: "all",
    group: "settings",
    tier: "mutating",
    annotations: SET,
    input: {
      name: patterns.optionNameArg,
      value: z.string().max(2000).optional(),
      unset: z.boolean().optional(),
      scope: scopeArg,
      ...targets,
    },
    async handler(args, ctx) {
      if ((args.value === undefined) === !args.unset) {
        throw new ToolError("INVALID_ARGUMENT", "Give a value, or unset: true (not both)", UNSET_HINT);
      }
      const value = args.unset ? null : args.value!;
      const problem = await optionProblem(ctx.tmux, args.name, value);
      if (problem) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          `Cannot set option ${args.name}: ${problem}`,
          "This is refused at every tier; show_option and show_hooks read such settings.",
        );
      }
      const { target, ids, owned } = await resolveTarget(ctx, args);
      if (!owned || args.scope === "server") {
        ctx.requireTier(
          "destructive",
          `set ${target ? "an option of something this server did not create" : "a global option"}`,
        );
      }
      await setOption(ctx.tmux, args.scope, target, args.name, value);
      return { ...ids, name: args.name, ...(value === null ? { unset: true } : { value }) };
    },
  }),
  defineTool({
    name: "show_environment",
    title: "Show environment",
    description: "Environment variables new panes get: global, or a session's (null = removed).",
    profile: "all",
    group: "settings",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { name: patterns.envNameArg.optional(), session: sessionArg.optional() },
    async handler(args, ctx) {
      const session = args.session === undefined
        ? null
        : (await resolveSession(ctx.tmux, ctx.workspace, args.session)).sessionId;
      return {
        ...(session ? { session_id: session } : {}),
        variables: await showEnvironment(ctx.tmux, session, args.name),
      };
    },
  }),
  defineTool({
    name: "set_environment",
    title: "Set environment",
    description: "Set (or `unset`) a variable for panes started later; global or a session's.",
    profile: "all",
    group: "settings",
    tier: "mutating",
    annotations: SET,
    input: {
      name: patterns.envNameArg,
      value: z.string().max(32_768).optional(),
      unset: z.boolean().optional(),
      session: sessionArg.optional(),
    },
    async handler(args, ctx) {
      if ((args.value === undefined) === !args.unset) {
        throw new ToolError("INVALID_ARGUMENT", "Give a value, or unset: true (not both)", UNSET_HINT);
      }
      if (args.value?.includes("\0")) {
        throw new ToolError("INVALID_ARGUMENT", "Invalid value: must not contain a NUL byte", UNSET_HINT);
      }
      const session = args.session === undefined ? null : await resolveSession(ctx.tmux, ctx.workspace, args.session);
      if (!session?.owned) {
        ctx.requireTier(
          "destructive",
          `set ${session ? "the environment of a session this server did not create" : "the global environment"}`,
        );
      }
      const value = args.unset ? null : args.value!;
      await setEnvironment(ctx.tmux, session?.sessionId ?? null, args.name, value, ctx.app.gate);
      return {
        ...(session ? { session_id: session.sessionId } : {}),
        name: args.name,
        ...(args.unset ? { unset: true } : {}),
      };
    },
  }),
  defineTool({
    name: "show_hooks",
    title: "Show hooks",
    description: "Hooks that are set: global, or of a session, window or pane.",
    profile: "all",
    group: "settings",
    tier: "readonly",
    annotations: READ_ONLY,
    input: targets,
    async handler(args, ctx) {
      const { target, ids } = await resolveTarget(ctx, args);
      return { ...ids, hooks: await showHooks(ctx.tmux, target) };
    },
  }),
];
