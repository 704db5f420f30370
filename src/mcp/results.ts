import type { PaneInfo } from "../engine/panes/mod.ts";
import type { SessionInfo, WindowInfo } from "../engine/layout/mod.ts";
import type { App } from "../app.ts";
import { atShellPrompt, type PaneProcess } from "../engine/facts/mod.ts";

/** How the reference documents the ids of `paneIds()` (spread into a tool's `result`). */
export const RESULT_PANE_IDS: Record<string, string> = {
  pane_id: "the pane's id (`%N`)",
  window_id: "its window (`@N`)",
  session_id: "its session (`$N`)",
  name: "the name given at creation, or null",
};

/** The ids every pane result carries, so the agent can chain the next call without a lookup. */
export function paneIds(pane: PaneInfo): Record<string, unknown> {
  return { pane_id: pane.paneId, window_id: pane.windowId, session_id: pane.sessionId, name: pane.name };
}

/** For the reference: the field of a new pane returned at the call's deadline, before its program started. */
export const RESULT_STARTING = {
  starting: "true when the call's deadline came before the pane's program was seen started (a loaded machine): " +
    "the pane is there and starts on its own; execute_command waits for its shell",
};

/** `starting: true` for a pane its call's deadline returned before its program started; nothing otherwise. */
export function startingField(starting: true | undefined): Record<string, unknown> {
  return starting ? { starting: true } : {};
}

/** One pane as list_panes and the pane resources show it. */
export function paneSummary(app: App, pane: PaneInfo): Record<string, unknown> {
  const other = app.workspace.otherWorkspace(pane);
  return {
    ...paneIds(pane),
    title: pane.title,
    status: pane.dead ? "exited" : "running",
    ...(pane.dead ? { exit_code: pane.exitCode } : {}),
    command: pane.command,
    pid: pane.pid,
    cwd: pane.cwd,
    size: `${pane.width}x${pane.height}`,
    owned: app.workspace.isOwned(pane),
    ...(other === null ? {} : { workspace_of: other }),
    ...(isCaller(app, pane) ? { is_caller: true } : {}),
  };
}

/** True when this pane is the one the server itself runs in (same socket, same pane). */
export function isCaller(app: App, pane: PaneInfo): boolean {
  const caller = app.config.caller;
  return caller !== null && caller.paneId === pane.paneId && app.workspace.sameServerAsCaller;
}

export function sessionSummary(session: SessionInfo): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    name: session.name,
    windows: session.windows,
    attached: session.attached,
    owned: session.owned,
    ...(session.workspace ? { workspace: true } : {}),
  };
}

export function windowSummary(window: WindowInfo): Record<string, unknown> {
  return {
    window_id: window.windowId,
    session_id: window.sessionId,
    session: window.sessionName,
    index: window.index,
    name: window.name,
    active: window.active,
    panes: window.paneIds,
    size: `${window.width}x${window.height}`,
    layout: window.layout,
    ...(window.zoomed ? { zoomed: true } : {}),
    owned: window.owned,
  };
}

/** A result with an image: MCP image content beside the structured fields (which also go out as JSON text). */
export class ImageResult {
  constructor(
    readonly fields: Record<string, unknown>,
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}

/** A pane's process state as pane_state, watch_pane and a send's wait report it. */
export function stateResult(state: PaneProcess): Record<string, unknown> {
  const proc = state.proc;
  return {
    alive: state.alive,
    ...(state.alive ? {} : { exit_code: state.exitCode }),
    pid: state.panePid,
    foreground_pid: proc?.fgPid ?? null,
    foreground_command: proc?.fgCommand ?? null,
    foreground_cmdline: proc?.fgCmdline ?? null,
    at_shell_prompt: proc ? atShellPrompt(proc) : false,
    waiting_for_input: proc?.waitingForInput ?? (state.alive ? null : false),
    reason: proc?.reason ?? "the pane's process has exited",
  };
}
