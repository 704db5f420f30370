/**
 * Layout: sessions, windows and where panes sit in them. Targets are resolved to tmux ids (never
 * tmux's prefix matching); ownership is judged from the panes inside (ours when all are ours).
 */
export { listSessions, listWindows, type Ownership, type SessionInfo, type WindowInfo } from "./model.ts";
export { resolveSession, resolveWindow } from "./targets.ts";
export { createSession, killSession, type NewSession, renameSession } from "./sessions.ts";
export {
  createWindow,
  killWindow,
  LAYOUTS,
  moveWindow,
  type NewWindow,
  renameWindow,
  resizeWindow,
  selectLayout,
  selectWindow,
} from "./windows.ts";
export {
  type Box,
  CORNERS,
  paneAtCorner,
  paneBox,
  type PaneSize,
  resizePane,
  selectPane,
  swapPanes,
} from "./geometry.ts";
