/**
 * tmux 3.2 gives a new window the size of the client whose command made it (an unsized control
 * client, or a one-shot client without a terminal, counts as 80x24) instead of its session's
 * `default-size` and `-x`/`-y`, as 3.3 and later do. On such a server every new-window and
 * new-session also prints its window's id and its session's default-size behind a mark, and the
 * window is then resized to it and handed back to `window-size` (so it follows a person who
 * attaches, as elsewhere).
 */
import type { TmuxDialect } from "./dialect.ts";

const MARK = "\x02tw-size ";
const CREATES_WINDOW = new Set(["new-window", "new-session"]);

/** `command` printing its window's mark too where windows need resizing; null where it needs nothing. */
export function markNewWindow(dialect: TmuxDialect, command: readonly string[]): string[] | null {
  if (!dialect.windowsTakeClientSize || !CREATES_WINDOW.has(command[0])) return null;
  const out = [...command];
  const mark = `${MARK}#{window_id} #{default-size}\n`;
  const format = out.indexOf("-F");
  if (format > 0 && format + 1 < out.length) out[format + 1] = mark + out[format + 1];
  else if (out.includes("-P")) return null; // tmux's own default format: rare, left as tmux sizes it
  else out.splice(1, 0, "-P", "-F", mark.slice(0, -1));
  return out;
}

/** A marked window: its id and the size its session gives windows. */
export interface MarkedWindow {
  windowId: string;
  width: number;
  height: number;
}

/** The reply without its marks, and the windows they named. */
export function takeMarks(lines: readonly string[]): { lines: string[]; windows: MarkedWindow[] } {
  const windows: MarkedWindow[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    const mark = line.startsWith(MARK) ? /^(@\d+) (\d+)x(\d+)$/.exec(line.slice(MARK.length)) : null;
    if (mark) windows.push({ windowId: mark[1], width: Number(mark[2]), height: Number(mark[3]) });
    else if (!line.startsWith(MARK)) rest.push(line);
  }
  return { lines: rest, windows };
}

/** The commands that give a marked window its size and then let it follow its clients again. */
export function resizeCommands(window: MarkedWindow): string[][] {
  return [
    ["resize-window", "-t", window.windowId, "-x", String(window.width), "-y", String(window.height)],
    ["set-option", "-w", "-u", "-t", window.windowId, "window-size"],
  ];
}
