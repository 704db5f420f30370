import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import { endOwner } from "./workspace_end.ts";

/**
 * A remote workspace is the link's hub session (the link's script made it): its id is read, its
 * first pane marked as the hub (when the session is new to this workspace), and new panes get
 * this server's history limit. Returns the session's id.
 */
export async function lookAtRemoteHub(
  tmux: TmuxServer,
  hubSession: string,
  historyLimit: number,
  knownId: string | null,
): Promise<string> {
  const hub = `=${hubSession}:`;
  const [[line]] = await tmux.batch([
    ["display-message", "-p", "-t", hub, "#{session_id}\x1f#{pane_id}"],
    ["set-option", "-t", hub, "history-limit", String(historyLimit)],
  ]);
  const [sessionId, hubPane] = (line ?? "").split("\x1f");
  if (!sessionId?.startsWith("$") || !hubPane?.startsWith("%")) {
    throw new ToolError(
      "TMUX_UNAVAILABLE",
      `Cannot find the session ${hubSession} on host ${tmux.host}: the link is attached but tmux did not name it`,
      `Retry; if it persists, run tmuxwright doctor --host ${tmux.host}.`,
    );
  }
  if (knownId !== sessionId) await tmux.run("set-option", "-p", "-t", hubPane, "@tmuxwright_hub", "1");
  return sessionId;
}

/**
 * Kills this owner's panes on the host and stops what survives of their processes (their logs
 * stay here). A link cut since its last call (noticed or not yet) is dialled once more: its panes
 * would otherwise stay until the lease ends. A host that cannot be reached keeps them (the lease).
 */
export async function killRemotePanes(tmux: TmuxServer, instance: string): Promise<void> {
  try {
    if (!tmux.connected) await tmux.connect();
    await endOwner(tmux, instance);
  } catch {
    await tmux.connect().catch(() => {});
    if (tmux.connected) await endOwner(tmux, instance).catch(() => {});
  }
}
