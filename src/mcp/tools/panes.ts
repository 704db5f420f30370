import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../register.ts";
import { isCaller, paneIds } from "../results.ts";
import { ToolError } from "../../engine/errors.ts";
import { listPanes, type PaneInfo } from "../../engine/panes/panes.ts";
import { resolveAndCapture } from "../../engine/panes/capture.ts";
import { KEY_FORMS_HELP, normalizeKey } from "../../tmux/keys.ts";
import type { ToolContext } from "../context.ts";
import * as patterns from "../../safety/patterns.ts";
import { assertNotCallerPane } from "../../safety/self_protection.ts";
import { directoryProblem } from "../../safety/sandbox.ts";

const DIRECTIONS = ["right", "below", "left", "above"] as const;

export const nameArg = patterns.nameArg.describe("unique name, usable as pane_id");
export const cwdArg = patterns.absolutePathArg.describe("absolute start directory");
export const commandArg = z.string().min(1).max(1_000_000);

/** Checks a start directory before tmux sees it (tmux would silently fall back to $HOME). */
export async function checkCwd(cwd: string | undefined): Promise<void> {
  if (cwd === undefined) return;
  const problem = await directoryProblem(cwd);
  if (problem) throw new ToolError("INVALID_ARGUMENT", `Invalid cwd ${JSON.stringify(cwd)}: ${problem}`);
}

export function checkName(name: string | undefined): void {
  if (name === undefined) return;
  if (/^[%@$]/.test(name)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Invalid name ${JSON.stringify(name)}: must not start with %, @ or $ (those are tmux ids)`,
    );
  }
  if (name.includes("\0")) throw new ToolError("INVALID_ARGUMENT", "Invalid name: must not contain a NUL byte");
}

export function deadError(pane: PaneInfo, action: string): ToolError {
  return new ToolError(
    "PANE_DEAD",
    `Cannot ${action} pane ${pane.paneId}: its process has exited (status ${pane.exitCode ?? "unknown"})`,
    "Its final output is still readable with capture_pane; create_pane starts a new one.",
  );
}

function paneSummary(ctx: ToolContext, pane: PaneInfo) {
  return {
    ...paneIds(pane),
    title: pane.title,
    status: pane.dead ? "exited" : "running",
    ...(pane.dead ? { exit_code: pane.exitCode } : {}),
    command: pane.command,
    pid: pane.pid,
    cwd: pane.cwd,
    size: `${pane.width}x${pane.height}`,
    owned: ctx.workspace.isOwned(pane),
    ...(isCaller(ctx.engine, pane) ? { is_caller: true } : {}),
  };
}

export const coreTools = [
  defineTool({
    name: "create_pane",
    title: "Create pane",
    description: "Open a terminal pane (new window, or split_from a pane) running the user's shell or `command`. " +
      "Output is logged from the first byte; the pane stays readable after its process exits.",
    profile: "core",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      command: commandArg.optional().describe("run this instead of an interactive shell"),
      name: nameArg.optional(),
      cwd: cwdArg.optional(),
      env: z.record(patterns.envNameArg, z.string().max(32_768)).optional(),
      login: z.boolean().optional().describe("login shell"),
      split_from: paneIdArg.optional(),
      direction: z.enum(DIRECTIONS).optional().describe("with split_from; default below"),
    },
    async handler(args, ctx) {
      checkName(args.name);
      await checkCwd(args.cwd);
      const splitFrom = args.split_from === undefined ? undefined : (await ctx.pane(args.split_from)).paneId;
      const { pane } = await ctx.workspace.createPane({
        command: args.command,
        name: args.name,
        cwd: args.cwd,
        env: args.env,
        login: args.login,
        splitFrom,
        direction: args.direction,
      });
      ctx.paneId = pane.paneId;
      return { ...paneIds(pane), pid: pane.pid, attach_command: ctx.workspace.attachCommand };
    },
  }),

  defineTool({
    name: "list_panes",
    title: "List panes",
    description: "List panes with ids, name, status running/exited (+exit_code), command, pid, cwd, size.",
    profile: "core",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      session: patterns.sessionRef.optional().describe("session name or $id"),
      owned_only: z.boolean().optional().describe("only panes this server created"),
    },
    async handler(args, ctx) {
      let panes = await listPanes(ctx.tmux);
      if (args.session !== undefined) {
        panes = panes.filter((p) => p.sessionName === args.session || p.sessionId === args.session);
      }
      if (args.owned_only) panes = panes.filter((p) => ctx.workspace.isOwned(p));
      return { panes: panes.filter((p) => !ctx.workspace.isHub(p)).map((p) => paneSummary(ctx, p)) };
    },
  }),

  defineTool({
    name: "send_keys",
    title: "Send keys",
    description: "Type `text` literally and/or press `keys` (tmux names: Enter, C-c, Up, F5; ^C = C-c). " +
      "`enter` defaults to true with text, false with keys only. Then wait_for_text or capture_pane.",
    profile: "core",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      pane_id: paneIdArg,
      text: z.string().max(1_000_000).optional(),
      keys: z.array(patterns.keyArg).max(256).optional(),
      enter: z.boolean().optional(),
    },
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
      if (args.text?.includes("\0")) {
        throw new ToolError("INVALID_ARGUMENT", "Invalid text: must not contain a NUL byte");
      }
      const pane = await ctx.pane(args.pane_id);
      if (pane.dead) throw deadError(pane, "send keys to");
      const enter = args.enter ?? args.text !== undefined;
      const commands: string[][] = [];
      if (args.text) commands.push(["send-keys", "-t", pane.paneId, "-l", "--", args.text]);
      if (keys.length > 0) commands.push(["send-keys", "-t", pane.paneId, "--", ...keys]);
      if (enter) commands.push(["send-keys", "-t", pane.paneId, "Enter"]);
      await ctx.tmux.batch(commands);
      return { ...paneIds(pane), sent: { text_chars: args.text?.length ?? 0, keys, enter } };
    },
  }),

  defineTool({
    name: "capture_pane",
    title: "Capture pane",
    description:
      "Read a pane's output: the last `lines` lines (default 100) of screen+history, wrapped lines joined. " +
      "Works on exited panes (crash output).",
    profile: "core",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      pane_id: paneIdArg,
      lines: z.number().int().min(1).max(10_000).optional(),
      start: z.number().int().min(-10_000_000).max(10_000).optional().describe("tmux -S line (negative = history)"),
      end: z.number().int().min(-10_000_000).max(10_000).optional().describe("tmux -E line"),
      join_wrapped: z.boolean().optional(),
      ansi: z.boolean().optional().describe("keep colour escapes"),
    },
    async handler(args, ctx) {
      const { pane, capture } = await resolveAndCapture(ctx.tmux, args.pane_id, {
        lines: args.lines,
        start: args.start,
        end: args.end,
        joinWrapped: args.join_wrapped,
        ansi: args.ansi,
      });
      ctx.paneId = pane.paneId;
      await ctx.engine.audit.capture(pane.paneId, capture.text);
      return {
        ...paneIds(pane),
        status: pane.dead ? "exited" : "running",
        ...(pane.dead ? { exit_code: pane.exitCode } : {}),
        lines: capture.lines,
        truncated: capture.truncated,
        text: capture.text,
      };
    },
  }),

  defineTool({
    name: "kill_pane",
    title: "Kill pane",
    description: "Close a pane and end its process. Panes this server created need tier mutating; others destructive.",
    profile: "core",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { pane_id: paneIdArg },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      assertKillable(ctx, pane, "kill");
      await ctx.tmux.run("kill-pane", "-t", pane.paneId);
      return { ...paneIds(pane), killed: true };
    },
  }),
];

/**
 * Self-protection and the ownership rule for anything that kills, respawns or stops a pane:
 * never the pane the server runs in or the workspace hub; panes of others need `destructive`.
 */
export function assertKillable(ctx: ToolContext, pane: PaneInfo, action: string): void {
  assertNotCallerPane(ctx.engine.config.caller, ctx.workspace.sameServerAsCaller, pane.paneId, action);
  if (ctx.workspace.isHub(pane)) {
    throw new ToolError(
      "PROTECTED_TARGET",
      `Cannot ${action} pane ${pane.paneId}: it keeps the workspace session alive`,
    );
  }
  if (!ctx.workspace.isOwned(pane)) {
    ctx.requireTier("destructive", `${action} pane ${pane.paneId}, which this server did not create`);
  }
}
