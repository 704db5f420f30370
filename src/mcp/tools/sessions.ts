import { defineTool, READ_ONLY } from "../define.ts";
import { commandArg, cwdArg, newSessionNameArg, sessionArg } from "../args.ts";
import { assertChangeable, checkCwd } from "../checks.ts";
import { paneIds, sessionSummary, startingField } from "../results.ts";
import { createSession, killSession, listSessions, renameSession, resolveSession } from "../../engine/layout/mod.ts";
import * as patterns from "../../safety/patterns.ts";

const CHANGE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const target = (s: { sessionId: string; owned: boolean; hub: boolean; paneIds: string[] }) => ({
  kind: "session" as const,
  id: s.sessionId,
  ...s,
});

/** tmux sessions: list, create, kill, rename. */
export const sessionTools = [
  defineTool({
    name: "list_sessions",
    title: "List sessions",
    description: "Sessions with ids, window count, attached clients, owned.",
    profile: "all",
    group: "sessions",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {},
    async handler(_args, ctx) {
      return { sessions: (await listSessions(ctx.tmux, ctx.workspace)).map(sessionSummary) };
    },
  }),
  defineTool({
    name: "create_session",
    title: "Create session",
    description: "New detached session; its first pane is owned and logged like create_pane's.",
    profile: "all",
    group: "sessions",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: {
      name: newSessionNameArg.optional(),
      window_name: patterns.nameArg.optional(),
      command: commandArg.optional(),
      cwd: cwdArg.optional(),
    },
    async handler(args, ctx) {
      await checkCwd(args.cwd);
      const { pane, starting } = await createSession(ctx.tmux, ctx.workspace, {
        name: args.name,
        windowName: args.window_name,
        command: args.command,
        cwd: args.cwd,
        signal: ctx.signal,
      });
      ctx.paneId = pane.paneId;
      const attach = ["tmux", ...ctx.app.config.socketArgs, "attach", "-t", `=${pane.sessionName}`].join(" ");
      return { ...paneIds(pane), session: pane.sessionName, attach_command: attach, ...startingField(starting) };
    },
  }),
  defineTool({
    name: "kill_session",
    title: "Kill session",
    description: "End a session and its panes. Ours: tier mutating; others: destructive.",
    profile: "all",
    group: "sessions",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { session: sessionArg },
    async handler(args, ctx) {
      const session = await resolveSession(ctx.tmux, ctx.workspace, args.session);
      await assertChangeable(ctx, target(session), "kill", true);
      await ctx.app.paneEnds.removing([session.sessionId], "kill_session");
      await killSession(ctx.tmux, session);
      return { session_id: session.sessionId, name: session.name, killed: true };
    },
  }),
  defineTool({
    name: "rename_session",
    title: "Rename session",
    description: "Rename a session.",
    profile: "all",
    group: "sessions",
    tier: "mutating",
    annotations: CHANGE,
    input: { session: sessionArg, name: newSessionNameArg },
    async handler(args, ctx) {
      const session = await resolveSession(ctx.tmux, ctx.workspace, args.session);
      await assertChangeable(ctx, target(session), "rename", true);
      await renameSession(ctx.tmux, ctx.workspace, session, args.name);
      return { session_id: session.sessionId, name: args.name, old_name: session.name };
    },
  }),
];
