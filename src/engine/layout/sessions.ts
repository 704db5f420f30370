import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import type { CreatedPane, Workspace } from "../panes/mod.ts";
import { listSessions, type SessionInfo } from "./model.ts";

export interface NewSession {
  name?: string;
  windowName?: string;
  command?: string;
  cwd?: string;
  /** The call's deadline: the pane comes back `starting` when it fires before its program started. */
  signal?: AbortSignal;
}

/** A new session whose first pane is owned (logged from its first byte, removed when this server exits). */
export async function createSession(
  tmux: TmuxServer,
  workspace: Workspace,
  options: NewSession,
): Promise<CreatedPane> {
  if (options.name !== undefined) await assertSessionNameFree(tmux, workspace, options.name);
  return await workspace.createPane({
    newSession: { name: options.name },
    windowName: options.windowName,
    command: options.command,
    cwd: options.cwd,
    signal: options.signal,
  });
}

/** Guarded: tmux 3.3a crashes when a session closes while a control client attaches (src/tmux/notifying.ts). */
export async function killSession(tmux: TmuxServer, session: SessionInfo): Promise<void> {
  await tmux.guarded([["kill-session", "-t", session.sessionId]]);
}

export async function renameSession(
  tmux: TmuxServer,
  workspace: Workspace,
  session: SessionInfo,
  name: string,
): Promise<void> {
  if (name !== session.name) await assertSessionNameFree(tmux, workspace, name);
  await tmux.guarded([["rename-session", "-t", session.sessionId, name]]);
}

async function assertSessionNameFree(tmux: TmuxServer, workspace: Workspace, name: string): Promise<void> {
  const holder = (await listSessions(tmux, workspace)).find((s) => s.name === name);
  if (holder) {
    throw new ToolError(
      "NAME_IN_USE",
      `Session name ${JSON.stringify(name)} is already used by session ${holder.sessionId}`,
      "Choose another name, or use list_sessions to see the existing sessions.",
    );
  }
}
