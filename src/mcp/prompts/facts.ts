import type { App } from "../../app.ts";
import { listTree, type PaneInfo, type WindowInfo } from "../../engine/panes/mod.ts";
import { ToolError } from "../../engine/errors.ts";

/** One line a prompt embeds so the model starts from the pane's live state. */
export function describePane(app: App, pane: PaneInfo): string {
  const label = pane.name === null ? pane.paneId : `${pane.paneId} ("${pane.name}")`;
  const state = pane.dead
    ? `has exited with status ${pane.exitCode ?? "unknown"}`
    : `is running \`${pane.command}\` (pid ${pane.pid ?? "unknown"}) in ${pane.cwd}`;
  const owner = app.workspace.isOwned(pane) ? "created by this server" : "not created by this server";
  return `Pane ${label}, session "${pane.sessionName}", window ${pane.windowId}, ${owner}, ${state}.`;
}

/** A window by `@N` or `session:index`, with its panes; an unknown one lists the windows there are. */
export async function liveWindow(app: App, ref: string): Promise<WindowInfo & { sessionName: string }> {
  const sessions = await listTree(app.tmux);
  const all = sessions.flatMap((s) => s.windows.map((w) => ({ ...w, sessionName: s.name })));
  const found = all.find((w) => w.windowId === ref || `${w.sessionName}:${w.index}` === ref);
  if (found && found.panes.length > 0) return found;
  const known = all.slice(0, 20).map((w) => `${w.windowId} (${w.sessionName}:${w.index})`).join(", ");
  throw new ToolError("PANE_NOT_FOUND", `Window ${JSON.stringify(ref)} not found. Windows: ${known || "none"}`);
}
