import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { listPanes, type PaneInfo, type Workspace } from "../panes/mod.ts";

const SESSION_FIELDS = {
  id: "session_id",
  name: "session_name",
  windows: "session_windows",
  attached: "session_attached",
  created: "session_created",
} as const;

const WINDOW_FIELDS = {
  id: "window_id",
  sessionId: "session_id",
  sessionName: "session_name",
  index: "window_index",
  name: "window_name",
  active: "window_active",
  panes: "window_panes",
  layout: "window_layout",
  width: "window_width",
  height: "window_height",
  zoomed: "window_zoomed_flag",
} as const;

/** Whose a session or window is, judged from its panes: ours when every pane in it is. */
export interface Ownership {
  /** Every pane in it was created by this server. */
  owned: boolean;
  /** It holds the workspace hub, which keeps the control connection attached: never killed, renamed or moved. */
  hub: boolean;
  paneIds: string[];
}

export interface SessionInfo extends Ownership {
  sessionId: string;
  name: string;
  windows: number;
  /** Clients attached (the server's own control connection counts for the workspace). */
  attached: number;
  created: number;
  workspace: boolean;
}

export interface WindowInfo extends Ownership {
  windowId: string;
  sessionId: string;
  sessionName: string;
  index: number;
  name: string;
  active: boolean;
  layout: string;
  width: number;
  height: number;
  zoomed: boolean;
}

function ownership(workspace: Workspace, panes: PaneInfo[]): Ownership {
  return {
    owned: panes.length > 0 && panes.every((p) => workspace.isOwned(p)),
    hub: panes.some((p) => workspace.isHub(p)),
    paneIds: panes.map((p) => p.paneId),
  };
}

export async function listSessions(tmux: TmuxServer, workspace: Workspace): Promise<SessionInfo[]> {
  const [rows, panes] = await Promise.all([
    tmux.run("list-sessions", "-F", formatTemplate(SESSION_FIELDS)),
    listPanes(tmux),
  ]);
  return parseRows(SESSION_FIELDS, rows).map((row) => ({
    sessionId: row.id,
    name: row.name,
    windows: Number(row.windows),
    attached: Number(row.attached),
    created: Number(row.created),
    workspace: row.name === workspace.sessionName,
    ...ownership(workspace, panes.filter((p) => p.sessionId === row.id)),
  }));
}

export async function listWindows(tmux: TmuxServer, workspace: Workspace): Promise<WindowInfo[]> {
  const [rows, panes] = await Promise.all([
    tmux.run("list-windows", "-a", "-F", formatTemplate(WINDOW_FIELDS)),
    listPanes(tmux),
  ]);
  return parseRows(WINDOW_FIELDS, rows).map((row) => ({
    windowId: row.id,
    sessionId: row.sessionId,
    sessionName: row.sessionName,
    index: Number(row.index),
    name: row.name,
    active: row.active === "1",
    layout: row.layout,
    width: Number(row.width),
    height: Number(row.height),
    zoomed: row.zoomed === "1",
    // A window linked into several sessions lists once per session; its panes are the same.
    ...ownership(workspace, panes.filter((p) => p.windowId === row.id && p.sessionId === row.sessionId)),
  }));
}
