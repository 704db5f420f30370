import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { PANE_TEMPLATE, type PaneInfo, queryPanes } from "./panes.ts";

const SESSION_FIELDS = {
  sessionId: "session_id",
  name: "session_name",
  attached: "session_attached",
  windows: "session_windows",
} as const;

const WINDOW_FIELDS = {
  sessionId: "session_id",
  windowId: "window_id",
  index: "window_index",
  name: "window_name",
  active: "window_active",
} as const;

export interface WindowInfo {
  windowId: string;
  index: number;
  name: string;
  active: boolean;
  panes: PaneInfo[];
}

export interface SessionInfo {
  sessionId: string;
  name: string;
  /** Clients attached (people watching, and tmuxwright's own control clients). */
  attached: number;
  windows: WindowInfo[];
}

/**
 * Every session with its windows and their panes, from three commands pipelined in one round
 * trip. A window linked into several sessions is listed under each.
 */
export async function listTree(tmux: TmuxServer): Promise<SessionInfo[]> {
  const [sessionRows, windowRows] = await tmux.batch([
    ["list-sessions", "-F", formatTemplate(SESSION_FIELDS)],
    ["list-windows", "-a", "-F", formatTemplate(WINDOW_FIELDS)],
  ]);
  const panes = await queryPanes(tmux, ["list-panes", "-a", "-F", PANE_TEMPLATE]);
  const sessions = parseRows(SESSION_FIELDS, sessionRows).map((row): SessionInfo => ({
    sessionId: row.sessionId,
    name: row.name,
    attached: Number(row.attached),
    windows: [],
  }));
  const byId = new Map(sessions.map((s) => [s.sessionId, s]));
  for (const row of parseRows(WINDOW_FIELDS, windowRows)) {
    byId.get(row.sessionId)?.windows.push({
      windowId: row.windowId,
      index: Number(row.index),
      name: row.name,
      active: row.active === "1",
      panes: panes.filter((p) => p.sessionId === row.sessionId && p.windowId === row.windowId),
    });
  }
  return sessions;
}
