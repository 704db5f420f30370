import type { PaneInfo } from "../engine/panes/mod.ts";
import type { App } from "../app.ts";

/** The ids every pane result carries, so the agent can chain the next call without a lookup. */
export function paneIds(pane: PaneInfo): Record<string, unknown> {
  return { pane_id: pane.paneId, window_id: pane.windowId, session_id: pane.sessionId, name: pane.name };
}

/** True when this pane is the one the server itself runs in (same socket, same pane). */
export function isCaller(app: App, pane: PaneInfo): boolean {
  const caller = app.config.caller;
  return caller !== null && caller.paneId === pane.paneId && app.workspace.sameServerAsCaller;
}

/** A result with an image: MCP image content beside the structured fields (which also go out as JSON text). */
export class ImageResult {
  constructor(
    readonly fields: Record<string, unknown>,
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}
