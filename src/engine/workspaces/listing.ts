import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import { type Liveness, ownerLiveness } from "./owner_lock.ts";

/** `tmuxwright-<pid>`, or `tmuxwright-<pid>-<n>` when an earlier process with the same pid left its workspace. */
export const WORKSPACE_NAME = /^tmuxwright-\d+(-\d+)?$/;

/** Session options a workspace carries; formats read them per session. */
export const WORKSPACE_OPTIONS = {
  pid: "@tmuxwright_workspace_pid",
  instance: "@tmuxwright_workspace_instance",
  lock: "@tmuxwright_lock",
  kept: "@tmuxwright_kept",
} as const;

const FIELDS = {
  name: "session_name",
  id: "session_id",
  created: "session_created",
  pid: WORKSPACE_OPTIONS.pid,
  instance: WORKSPACE_OPTIONS.instance,
  lock: WORKSPACE_OPTIONS.lock,
  kept: WORKSPACE_OPTIONS.kept,
} as const;

export interface WorkspaceInfo {
  name: string;
  sessionId: string;
  /** Unix seconds. */
  created: number;
  pid: number | null;
  /** The owning server process (`<pid>-<random>`); null for workspaces of older versions. */
  instance: string | null;
  lockPath: string | null;
  kept: boolean;
  /** Whether the owning process lives, judged by its lock (see owner_lock.ts). */
  owner: Liveness;
}

/** The workspace sessions on a tmux server, newest first; empty when no tmux server runs. */
export async function listWorkspaces(socketArgs: readonly string[], stateDir: string): Promise<WorkspaceInfo[]> {
  const out = await tmuxOneShot([...socketArgs, "list-sessions", "-F", formatTemplate(FIELDS)]);
  if (out.code !== 0) return [];
  const rows = parseRows(FIELDS, out.stdout.split("\n")).filter((row) => WORKSPACE_NAME.test(row.name));
  const workspaces = await Promise.all(rows.map(async (row): Promise<WorkspaceInfo> => ({
    name: row.name,
    sessionId: row.id,
    created: Number(row.created),
    pid: /^\d+$/.test(row.pid) ? Number(row.pid) : null,
    instance: row.instance || null,
    lockPath: row.lock || null,
    kept: row.kept === "1",
    owner: row.lock ? await ownerLiveness(stateDir, row.lock) : "unknown",
  })));
  // Session ids grow with every new session on a tmux server: the exact creation order.
  return workspaces.sort((a, b) => Number(b.sessionId.slice(1)) - Number(a.sessionId.slice(1)));
}
