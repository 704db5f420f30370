import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import type { Workspace } from "../panes/mod.ts";
import { listSessions, listWindows, type SessionInfo, type WindowInfo } from "./model.ts";

const SESSION_ID = /^\$\d+$/;
const WINDOW_ID = /^@\d+$/;

/** A session by `$N` or exact name (never tmux's prefix matching). */
export async function resolveSession(tmux: TmuxServer, workspace: Workspace, ref: string): Promise<SessionInfo> {
  const sessions = await listSessions(tmux, workspace);
  const found = sessions.find((s) => (SESSION_ID.test(ref) ? s.sessionId === ref : s.name === ref));
  if (found) return found;
  const names = sessions.map((s) => `${JSON.stringify(s.name)} (${s.sessionId})`).slice(0, 20).join(", ");
  throw new ToolError(
    "NOT_FOUND",
    `Session ${JSON.stringify(ref)} not found. Sessions: ${names || "none"}`,
    "Use list_sessions to see sessions.",
  );
}

/** A window by `@N` or `session:index`, the session by `$N` or exact name. */
export async function resolveWindow(tmux: TmuxServer, workspace: Workspace, ref: string): Promise<WindowInfo> {
  const windows = await listWindows(tmux, workspace);
  let found: WindowInfo | undefined;
  if (WINDOW_ID.test(ref)) {
    found = windows.find((w) => w.windowId === ref);
  } else {
    const colon = ref.lastIndexOf(":");
    const session = ref.slice(0, colon);
    const index = Number(ref.slice(colon + 1));
    found = windows.find((w) =>
      (SESSION_ID.test(session) ? w.sessionId === session : w.sessionName === session) && w.index === index
    );
  }
  if (found) return found;
  throw new ToolError(
    "NOT_FOUND",
    `Window ${JSON.stringify(ref)} not found`,
    "Use list_windows to see window ids and session:index targets.",
  );
}
