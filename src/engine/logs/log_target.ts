import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError, toToolError } from "../errors.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { resolvePane } from "../panes/mod.ts";
import { findLog, type LogEntry } from "../output/mod.ts";

export interface LogTarget {
  logPath: string;
  /** The live pane, or null when it is gone and the log was found in the registry. */
  pane: PaneInfo | null;
  entry: LogEntry | null;
}

/**
 * A pane's log by `%N` or name: the live pane's log when it exists, else the newest registry
 * entry on this tmux server (killed panes, panes of an earlier server process with --keep).
 */
export async function resolveLog(
  tmux: TmuxServer,
  stateDir: string,
  socketPath: () => string | null,
  ref: string,
): Promise<LogTarget> {
  let missing: ToolError;
  try {
    const pane = await resolvePane(tmux, ref);
    if (pane.logPath) return { logPath: pane.logPath, pane, entry: null };
    missing = new ToolError(
      "INVALID_ARGUMENT",
      `Pane ${pane.paneId} has no log: only panes created by tmuxwright are logged`,
      "Use capture_pane to read this pane's screen and scrollback.",
    );
    // A name reused by a pane without a log may still name a killed logged pane.
    if (ref === pane.paneId) throw missing;
  } catch (error) {
    const mapped = toToolError(error);
    if (mapped.code !== "PANE_NOT_FOUND" && mapped.code !== "TMUX_UNAVAILABLE") throw error;
    missing = mapped;
  }
  const entry = await findLog(stateDir, socketPath(), ref);
  if (entry) return { logPath: entry.path, pane: null, entry };
  throw missing;
}
