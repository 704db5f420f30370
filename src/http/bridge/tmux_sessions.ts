import type { TmuxServer } from "../../tmux/server.ts";

/** A tmux session as the bridge sees it. */
export interface BridgeSession {
  id: string;
  /** The name the client gave (tmux replaces `.` and `:` in session names, so it is kept in an option). */
  name: string;
  tmuxName: string;
  /** The pane the session's keys go to: the active pane of its active window. */
  paneId: string;
}

/** The session option holding the client's name for a session the bridge created. */
export const NAME_OPTION = "@tmuxwright_bridge_name";
const SEP = "\x1f";
const TEMPLATE = [
  "#{session_id}",
  "#{session_name}",
  `#{${NAME_OPTION}}`,
  "#{@tmuxwright_workspace_pid}",
  "#{window_active}",
  "#{pane_active}",
  "#{pane_id}",
].join(SEP);

/**
 * Every session on the server except tmuxwright workspaces (the hub sessions its control
 * connections attach to), with the pane each one's input goes to. One round trip.
 */
export async function listBridgeSessions(tmux: TmuxServer): Promise<BridgeSession[]> {
  return parseBridgeSessions(await tmux.run(...LIST_SESSIONS));
}

/** The one command `listBridgeSessions` runs, for callers that pipeline it with others. */
export const LIST_SESSIONS: readonly string[] = ["list-panes", "-a", "-F", TEMPLATE];

export function parseBridgeSessions(lines: readonly string[]): BridgeSession[] {
  const sessions = new Map<string, BridgeSession>();
  for (const line of lines) {
    const [id, tmuxName, name, workspacePid, windowActive, paneActive, paneId] = line.split(SEP);
    if (workspacePid || windowActive !== "1" || paneActive !== "1") continue;
    sessions.set(id, { id, name: name || tmuxName, tmuxName, paneId });
  }
  return [...sessions.values()];
}

/** A tmux session name for a client's name: `.` and `:` are target separators to tmux. */
export function tmuxSessionName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/[.:]/g, "_");
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) {
    if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}
