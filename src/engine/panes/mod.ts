/**
 * Panes: the workspace session that owns the panes this server creates, what tmux says about a
 * pane (`PaneInfo`), resolving what an agent passes as `pane_id`, capturing output, and pasting.
 */
export { type CreatePaneOptions, Workspace } from "./workspace.ts";
export { listPanes, type PaneInfo } from "./panes.ts";
export { isPaneId, resolvePane } from "./targets.ts";
export { type Capture, type CaptureOptions, capturePane, resolveAndCapture } from "./capture.ts";
export { Paster } from "./paste.ts";
