import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { WindowInfo } from "./model.ts";

export const CORNERS = ["top-left", "top-right", "bottom-left", "bottom-right"] as const;
export type Corner = typeof CORNERS[number];

const BOX_FIELDS = {
  paneId: "pane_id",
  left: "pane_left",
  top: "pane_top",
  right: "pane_right",
  bottom: "pane_bottom",
  zoomed: "window_zoomed_flag",
} as const;

export interface Box {
  paneId: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  zoomed: boolean;
}

async function boxes(tmux: TmuxServer, target: string): Promise<Box[]> {
  const rows = parseRows(BOX_FIELDS, await tmux.run("list-panes", "-t", target, "-F", formatTemplate(BOX_FIELDS)));
  return rows.map((r) => ({
    paneId: r.paneId,
    left: Number(r.left),
    top: Number(r.top),
    right: Number(r.right),
    bottom: Number(r.bottom),
    zoomed: r.zoomed === "1",
  }));
}

/** Where a pane sits in its window (cells from the top-left) and whether the window is zoomed. */
export async function paneBox(tmux: TmuxServer, paneId: string): Promise<Box | null> {
  return (await boxes(tmux, paneId)).find((b) => b.paneId === paneId) ?? null;
}

/** The pane that holds the given corner of the window (exactly one pane does). */
export async function paneAtCorner(tmux: TmuxServer, window: WindowInfo, corner: Corner): Promise<string> {
  const all = await boxes(tmux, window.windowId);
  const bottom = corner.startsWith("bottom");
  const right = corner.endsWith("right");
  const y = bottom ? Math.max(...all.map((b) => b.bottom)) : Math.min(...all.map((b) => b.top));
  const x = right ? Math.max(...all.map((b) => b.right)) : Math.min(...all.map((b) => b.left));
  const found = all.find((b) => (bottom ? b.bottom : b.top) === y && (right ? b.right : b.left) === x);
  return (found ?? all[0]).paneId;
}

/** Makes the pane the active one of its window and that window its session's current one. */
export async function selectPane(tmux: TmuxServer, pane: PaneInfo): Promise<void> {
  await tmux.guarded([
    ["select-pane", "-t", pane.paneId],
    ["select-window", "-t", `${pane.sessionId}:${pane.windowIndex}`],
  ]);
}

/** Swaps two panes' places (they may be in different windows); the active pane stays where it was. */
export async function swapPanes(tmux: TmuxServer, a: PaneInfo, b: PaneInfo): Promise<void> {
  await tmux.run("swap-pane", "-d", "-s", a.paneId, "-t", b.paneId);
}

export interface PaneSize {
  /** Absolute size in cells. */
  width?: number;
  height?: number;
  /** Relative change in cells (negative shrinks), applied to the current size. */
  dx?: number;
  dy?: number;
  /** Zoom the pane to fill its window (true) or unzoom it (false). */
  zoom?: boolean;
}

/** Resizes a pane; returns whether its window is zoomed afterwards. */
export async function resizePane(tmux: TmuxServer, pane: PaneInfo, size: PaneSize): Promise<boolean> {
  let zoomed = (await paneBox(tmux, pane.paneId))?.zoomed ?? false;
  const width = size.width ?? (size.dx ? Math.max(1, pane.width + size.dx) : undefined);
  const height = size.height ?? (size.dy ? Math.max(1, pane.height + size.dy) : undefined);
  const commands: string[][] = [];
  if (width !== undefined || height !== undefined) {
    if (zoomed) commands.push(["resize-pane", "-Z", "-t", pane.paneId]); // sizes apply to the unzoomed layout
    commands.push([
      "resize-pane",
      "-t",
      pane.paneId,
      ...(width !== undefined ? ["-x", String(width)] : []),
      ...(height !== undefined ? ["-y", String(height)] : []),
    ]);
    if (zoomed && size.zoom !== false) commands.push(["resize-pane", "-Z", "-t", pane.paneId]);
    else if (zoomed) zoomed = false;
  }
  if (size.zoom !== undefined && size.zoom !== zoomed) {
    commands.push(["resize-pane", "-Z", "-t", pane.paneId]);
    zoomed = size.zoom;
  }
  for (const command of commands) await tmux.run(...command);
  return zoomed;
}
