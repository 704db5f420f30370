import { readTail } from "../engine/logs/mod.ts";
import type { WatchScreen } from "../http/watch/backend.ts";

/** At most this many of a dead pane's last logged lines are put back on its tile. */
const MAX_LINES = 20;

/**
 * A dead pane's screen as the wall shows it. tmux's screen of a pane that printed and ended can
 * hold nothing but its "Pane is dead" row (a program that cleared its screen on the way out; a
 * pane made before its gate kept the first row; a screen cleared since): then the last lines of
 * the pane's log go above that row, so its tile says what the pane printed above how it ended.
 * Any other screen is tmux's as it is.
 */
export async function withLastLines(screen: WatchScreen, logPath: string | null): Promise<WatchScreen> {
  if (logPath === null) return screen;
  const written = screen.lines.flatMap((line, row) => visible(line) === "" ? [] : [row]);
  // tmux writes its notice on the last row: anything else written is what the pane printed, kept.
  const bottom = screen.lines.length - 1;
  if (written.length > 1 || (written.length === 1 && written[0] !== bottom)) return screen;
  const tail = await readTail(logPath, MAX_LINES, true).catch(() => null);
  const lines = (tail?.lines ?? []).map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return screen;
  // Above the notice (tmux writes it on the last row), or from the top when there is none yet.
  const notice = written[0] ?? -1;
  const room = notice >= 0 ? notice : screen.rows;
  const shown = lines.slice(-room);
  const first = notice >= 0 ? notice - shown.length : 0;
  const rows = [...screen.lines];
  shown.forEach((line, i) => rows[first + i] = line);
  return { ...screen, lines: rows };
}

/** A row's text without its colours. */
function visible(line: string): string {
  // deno-lint-ignore no-control-regex
  return line.replace(/\x1b\[[0-9;:]*m/g, "").trim();
}
