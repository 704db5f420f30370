import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import type { TmuxServer } from "../../tmux/server.ts";

const SCREEN_FIELDS = {
  cursorX: "cursor_x",
  cursorY: "cursor_y",
  cursorVisible: "cursor_flag",
  inMode: "pane_in_mode",
  mode: "pane_mode",
  scrollPosition: "scroll_position",
  historySize: "history_size",
  width: "pane_width",
  height: "pane_height",
  alternate: "alternate_on",
} as const;
const SCREEN_TEMPLATE = formatTemplate(SCREEN_FIELDS);

export interface ScreenState {
  cursor: { x: number; y: number; visible: boolean };
  /** tmux's mode (e.g. "copy-mode") or null when the pane shows its program. */
  mode: string | null;
  /** Lines scrolled back in copy mode (0 at the bottom). */
  scrollPosition: number;
  historySize: number;
  width: number;
  height: number;
  alternateScreen: boolean;
}

export interface Screen {
  state: ScreenState;
  /** One entry per visible row, top to bottom (with SGR escapes when asked). */
  rows: string[];
}

/**
 * The visible screen of a pane and its state (cursor, mode, size, scroll position, history) in
 * one pipelined round trip, so rows and cursor describe the same moment.
 */
export async function readScreen(tmux: TmuxServer, paneId: string, ansi: boolean): Promise<Screen> {
  const [info, rows] = await tmux.batch([
    ["display-message", "-p", "-t", paneId, SCREEN_TEMPLATE],
    ["capture-pane", "-p", ...(ansi ? ["-e", "-N"] : []), "-t", paneId],
  ]);
  const row = parseRows(SCREEN_FIELDS, info)[0];
  const int = (value: string) => Number(value) || 0;
  const state: ScreenState = {
    cursor: { x: int(row.cursorX), y: int(row.cursorY), visible: row.cursorVisible === "1" },
    mode: row.inMode === "1" ? row.mode || "copy-mode" : null,
    scrollPosition: int(row.scrollPosition),
    historySize: int(row.historySize),
    width: int(row.width),
    height: int(row.height),
    alternateScreen: row.alternate === "1",
  };
  return { state, rows: ansi ? rows : rows.map((r) => r.trimEnd()) };
}
