/**
 * Panes: the workspace session that owns the panes this server creates, what tmux says about a
 * pane (`PaneInfo`), resolving what an agent passes as `pane_id`, capturing output, and pasting.
 */
export { Workspace } from "./workspace.ts";
export type { WorkspaceRole } from "./workspace_role.ts";
export type { CreatedPane, CreatePaneOptions } from "./pane_create.ts";
export { type WorkspaceFactory, WorkspaceOwner } from "./workspace_owner.ts";
export { listPanes, type PaneInfo } from "./panes.ts";
export { TOP_OPTION } from "./gate.ts";
export { PAGER_DEFAULTS, paneEnvironment } from "./pane_env.ts";
export { isPaneId, REMOVED_OPTION, resolvePane } from "./targets.ts";
export { type Capture, captureAlongside, type CaptureOptions, capturePane, resolveAndCapture } from "./capture.ts";
export { Paster } from "./paste.ts";
export {
  clearPane,
  enterCopyMode,
  exitCopyMode,
  modeState,
  type Respawn,
  respawnPane,
  setPaneTitle,
} from "./pane_ops.ts";
export { startPaneLog, stopPaneLog } from "./pane_logs.ts";
export { PaneSetWatcher } from "./pane_set.ts";
export { listTree, type SessionInfo, type WindowInfo } from "./tree.ts";
export { AGENT_OPTION, type AgentName, agentOf, decodeAgent, encodeAgent } from "./agent_name.ts";
