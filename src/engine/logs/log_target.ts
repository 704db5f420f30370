import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError, toToolError } from "../errors.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { isPaneId, resolvePane } from "../panes/mod.ts";
import { logEntries, type LogEntry } from "../output/mod.ts";
import { lockPathFor, ownerLiveness } from "../workspaces/mod.ts";

export interface LogTarget {
  logPath: string;
  /** The live pane, or null when it is gone and the log was found in the registry. */
  pane: PaneInfo | null;
  entry: LogEntry | null;
}

export interface LogScope {
  stateDir: string;
  /** The tmux socket, once known: registry entries of other tmux servers are never candidates. */
  socketPath: () => string | null;
  /** The calling server process: its names come first. */
  instance: string;
}

/**
 * A pane's log by `%N` or name: the live pane's log when it exists (names within the caller's
 * workspace), else the newest registry entry on this tmux server. A `%N` is global; a name is the
 * caller's own killed pane first, then a pane of a server that is no longer running (an earlier
 * process of this state directory, with --keep or crashed), never a live other server's pane. A
 * live pane whose pipe_pane log this process stopped still reads that log.
 */
export async function resolveLog(tmux: TmuxServer, scope: LogScope, ref: string): Promise<LogTarget> {
  let missing: ToolError;
  try {
    const pane = await resolvePane(tmux, ref, scope.instance);
    if (pane.logPath) return { logPath: pane.logPath, pane, entry: null };
    const entries = await logEntries(scope.stateDir, scope.socketPath());
    const stopped = entries.find((e) => e.pane_id === pane.paneId && e.instance === scope.instance);
    if (stopped) return { logPath: stopped.path, pane, entry: stopped };
    missing = new ToolError(
      "INVALID_ARGUMENT",
      `Pane ${pane.paneId} has no log: only panes created by tmuxwright are logged (others after pipe_pane)`,
      "Use capture_pane to read this pane's screen and scrollback; pipe_pane (profile all) logs it from now on.",
    );
    // A name reused by a pane without a log may still name a killed logged pane.
    if (ref === pane.paneId) throw missing;
  } catch (error) {
    const mapped = toToolError(error);
    if (!["PANE_NOT_FOUND", "PANE_GONE", "TMUX_UNAVAILABLE"].includes(mapped.code)) throw error;
    missing = mapped;
  }
  const entry = await registeredLog(scope, ref);
  if (entry) return { logPath: entry.path, pane: null, entry };
  throw missing;
}

async function registeredLog(scope: LogScope, ref: string): Promise<LogEntry | null> {
  const entries = await logEntries(scope.stateDir, scope.socketPath());
  if (isPaneId(ref)) return entries.find((e) => e.pane_id === ref) ?? null;
  const named = entries.filter((e) => e.name === ref);
  const own = named.find((e) => e.instance === scope.instance);
  if (own) return own;
  for (const entry of named) {
    // Entries of older versions carry no owner to ask: they predate every server running now.
    if (entry.instance === undefined) return entry;
    const owner = await ownerLiveness(scope.stateDir, lockPathFor(scope.stateDir, entry.instance));
    if (owner !== "alive") return entry;
  }
  return null;
}
