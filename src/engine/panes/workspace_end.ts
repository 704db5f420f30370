import type { Config } from "../../config.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { endOwnerScript } from "../../tmux/host_session_lock.ts";
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
 * whole private tmux server with it; otherwise the owner's sessions and panes go wherever they are
 * (logs stay on disk), and what survives of the processes started in them (a job that ignores the
 * hang-up) is stopped, as the tmux side does when a server dies (src/tmux/sweep.ts).
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
    await endOwner(tmux, workspace.instance);
    if (workspace.hub) await stopForeignLogs(config, workspace.instance);
  }
}

/**
 * Removes an owner's sessions and panes (those whose owner option is its instance) under the
 * session lock, and stops what survives of their processes; one script tmux runs where it runs
 * (a host's too). A tmux server that is gone (restarted, killed) holds nothing of it.
 */
export async function endOwner(tmux: TmuxServer, instance: string): Promise<void> {
  const result = await tmux.runShell(endOwnerScript(instance, END_TRIES)).catch((error) => {
    if (error instanceof TmuxError && (error.kind === "server_gone" || error.kind === "target_gone")) return null;
    throw error;
  });
  if (result?.status === 75) {
    const where = tmux.remote ? `on host "${tmux.host}"` : "of this tmux server";
    throw new TmuxError("command_failed", `the session lock ${where} stayed taken for 10 s`);
  }
}

/** 20 ms tries of the session lock: 10 s, as every guarded step waits. */
const END_TRIES = 500;
