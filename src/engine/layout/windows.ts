import type { TmuxServer } from "../../tmux/server.ts";
import type { CreatedPane, Workspace } from "../panes/mod.ts";
import type { SessionInfo, WindowInfo } from "./model.ts";

export const LAYOUTS = ["even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"] as const;

export interface NewWindow {
  /** Default: the workspace session. */
  session?: SessionInfo;
  /** Default: the next free index. */
  index?: number;
  name?: string;
  command?: string;
  cwd?: string;
  /** The call's deadline: the pane comes back `starting` when it fires before its program started. */
  signal?: AbortSignal;
}

/** A new window whose pane is owned (logged from its first byte, removed when this server exits). */
export function createWindow(workspace: Workspace, options: NewWindow): Promise<CreatedPane> {
  const session = options.session?.sessionId;
  return workspace.createPane({
    windowIn: session === undefined ? undefined : `${session}:${options.index ?? ""}`,
    windowName: options.name,
    command: options.command,
    cwd: options.cwd,
    signal: options.signal,
  });
}

/** Guarded like kill-session: a session's last window takes the session with it. */
export async function killWindow(tmux: TmuxServer, window: WindowInfo): Promise<void> {
  await tmux.guarded([["kill-window", "-t", window.windowId]]);
}

export async function renameWindow(tmux: TmuxServer, window: WindowInfo, name: string): Promise<void> {
  await tmux.run("rename-window", "-t", window.windowId, name);
}

/** Makes the window its session's current window (what an attached person sees). */
export async function selectWindow(tmux: TmuxServer, window: WindowInfo): Promise<void> {
  await tmux.guarded([["select-window", "-t", `${window.sessionId}:${window.index}`]]);
}

export async function selectLayout(tmux: TmuxServer, window: WindowInfo, layout: string): Promise<void> {
  await tmux.run("select-layout", "-t", window.windowId, layout);
}

/** Sets the window's size; tmux then keeps it (window-size manual) until resized again. */
export async function resizeWindow(tmux: TmuxServer, window: WindowInfo, width?: number, height?: number) {
  const size = [...(width ? ["-x", String(width)] : []), ...(height ? ["-y", String(height)] : [])];
  await tmux.run("resize-window", "-t", window.windowId, ...size);
}

/**
 * Moves the window into `session` (at `index`, else the next free one) without switching anyone to
 * it. Guarded like kill-session: moving a session's last window out closes that session.
 */
export async function moveWindow(tmux: TmuxServer, window: WindowInfo, session: SessionInfo, index?: number) {
  const from = `${window.sessionId}:${window.index}`;
  const to = `${session.sessionId}:${index ?? ""}`;
  await tmux.guarded([["move-window", "-d", "-s", from, "-t", to]]);
}
