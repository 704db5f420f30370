import type { Config } from "../../config.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { WORKSPACE_OPTIONS } from "../workspaces/mod.ts";
import { stopForeignLogs } from "./pane_logs.ts";

/** The workspace being ended on the local tmux server. */
export interface EndingWorkspace {
  instance: string;
  hub: boolean;
  sessionName: string;
}

/**
 * Ends a local workspace: with --keep it is marked kept; the hub of an isolated server takes the
 * whole private tmux server with it; otherwise the owner's panes are killed wherever they are
 * (logs stay on disk) and its session goes.
 */
export async function endLocalWorkspace(
  config: Readonly<Config>,
  tmux: TmuxServer,
  workspace: EndingWorkspace,
): Promise<void> {
  const socket = config.socketArgs;
  // By name, and only while it is this owner's: a session id names another session once tmux has
  // restarted (ids start again at $0), and a workspace idle since then still holds its old one.
  const name = workspace.sessionName;
  if (config.keep) {
    await tmuxOneShot([...socket, "set-option", "-t", `=${name}:`, WORKSPACE_OPTIONS.kept, "1"]);
  } else if (config.isolated && workspace.hub) {
    await tmuxOneShot([...socket, "kill-server"]);
  } else {
    await tmux.guarded(await killOwnedElsewhere(socket, workspace.instance, workspace.sessionName));
    if (workspace.hub) await stopForeignLogs(config, workspace.instance);
    // Already gone (tmux restarted, a person killed it): nothing is left to end.
    const ours = `#{==:#{${WORKSPACE_OPTIONS.instance}},${workspace.instance}}`;
    await tmux.guarded([["if-shell", "-F", "-t", `=${name}:`, ours, `kill-session -t =${name}`]]).catch((error) => {
      if (!(error instanceof TmuxError && error.kind === "target_gone")) throw error;
    });
  }
}

/**
 * Owned panes outside the workspace (create_session, create_window, moved windows) go too: a
 * window or session whose panes were all ours disappears with them; a pane a person added stays.
 */
async function killOwnedElsewhere(socketArgs: readonly string[], instance: string, workspace: string) {
  const listed = await tmuxOneShot([
    ...socketArgs,
    "list-panes",
    "-a",
    "-F",
    "#{pane_id}\x1f#{@tmuxwright_instance}\x1f#{session_name}",
  ]);
  return listed.stdout.split("\n").map((line) => line.split("\x1f"))
    .filter(([id, owner, session]) => /^%\d+$/.test(id) && owner === instance && session !== workspace)
    .map(([id]) => ["kill-pane", "-t", id]);
}
