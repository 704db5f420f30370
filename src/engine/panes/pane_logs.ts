import { basename, dirname } from "node:path";
import type { Config } from "../../config.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import { ToolError } from "../errors.ts";
import { logDir, logPathFor, pipeCommand, recordLog } from "../output/mod.ts";
import { encodeName, type PaneInfo } from "./panes.ts";

type LogConfig = Pick<Config, "stateDir" | "pid" | "logMaxBytes" | "logKeep" | "socketArgs">;

/** A log this state directory holds (this process's, or another tmuxwright's sharing the directory). */
function inStateDir(config: LogConfig, path: string | null): path is string {
  return path !== null && dirname(path) === logDir(config.stateDir);
}

function startedHere(config: LogConfig, path: string | null): path is string {
  return inStateDir(config, path) && basename(path).startsWith(`${config.pid}-`);
}

/**
 * Starts a durable, rotated log of any pane's output from now on, exactly as owned panes have from
 * their first byte: `@tmuxwright_log` names it, so read_logs, capture_since and waits follow the file.
 * Ownership is untouched (`@tmuxwright_instance` is not set). A pane that already pipes elsewhere is refused.
 */
export async function startPaneLog(
  tmux: TmuxServer,
  config: LogConfig,
  socketPath: string | null,
  instance: string,
  pane: PaneInfo,
): Promise<{ logPath: string; started: boolean }> {
  if (inStateDir(config, pane.logPath) && pane.piped) return { logPath: pane.logPath, started: false };
  if (pane.piped) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cannot log pane ${pane.paneId}: it already pipes its output to another command (pipe-pane)`,
      "Read its screen and scrollback with capture_pane instead.",
    );
  }
  const logPath = logPathFor(config.stateDir, config.pid, pane.paneId);
  await tmux.batch([
    ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_log", encodeName(logPath)],
    [
      "pipe-pane",
      "-o",
      "-t",
      pane.paneId,
      pipeCommand(logPath, { maxBytes: config.logMaxBytes, keep: config.logKeep }),
    ],
  ]);
  await recordLog(config.stateDir, {
    pane_id: pane.paneId,
    name: pane.name,
    session: pane.sessionName,
    socket: socketPath,
    owner_pid: config.pid,
    instance,
    created: new Date().toISOString(),
    path: logPath,
  });
  return { logPath, started: true };
}

/** Stops a log started by `startPaneLog`; the file stays readable with read_logs. Owned panes are always logged. */
export async function stopPaneLog(
  tmux: TmuxServer,
  config: LogConfig,
  pane: PaneInfo,
  owned: boolean,
): Promise<{ logPath: string | null; stopped: boolean }> {
  if (owned) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cannot stop logging pane ${pane.paneId}: panes tmuxwright creates are logged for their whole life`,
      "Waits and read_logs depend on that log; kill_pane ends the pane instead.",
    );
  }
  if (startedHere(config, pane.logPath)) {
    await tmux.batch([
      ["pipe-pane", "-t", pane.paneId],
      ["set-option", "-p", "-u", "-t", pane.paneId, "@tmuxwright_log"],
    ]);
    return { logPath: pane.logPath, stopped: true };
  }
  if (pane.piped) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cannot stop the pipe of pane ${pane.paneId}: it was not started by this tmuxwright process`,
      "pipe_pane stops only the logs it started; get_pane_info shows whether a pane is logged.",
    );
  }
  return { logPath: null, stopped: false };
}

/** At exit: stops the logs this process started on panes it does not own, so nothing keeps writing for it. */
export async function stopForeignLogs(config: LogConfig, instance: string): Promise<void> {
  const listed = await tmuxOneShot([
    ...config.socketArgs,
    "list-panes",
    "-a",
    "-F",
    "#{pane_id}\x1f#{@tmuxwright_instance}\x1f#{@tmuxwright_log}",
  ]);
  const commands = listed.stdout.split("\n").map((line) => line.split("\x1f"))
    .filter(([id, owner, log]) => /^%\d+$/.test(id) && owner !== instance && startedHere(config, decode(log ?? "")))
    .flatMap(([id], i) => [
      ...(i > 0 ? [";"] : []),
      ...["pipe-pane", "-t", id, ";", "set-option", "-p", "-u", "-t", id, "@tmuxwright_log"],
    ]);
  if (commands.length > 0) await tmuxOneShot([...config.socketArgs, ...commands]);
}

function decode(stored: string): string | null {
  try {
    return stored === "" ? null : decodeURIComponent(stored);
  } catch {
    return null;
  }
}
