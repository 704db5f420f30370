import type { IBufferCell, Terminal as TerminalType } from "@xterm/headless";
import type { Screen } from "./snapshot.ts";
import { type Theme, themeColor } from "./themes.ts";
import type { Pacer } from "./pacer.ts";

/** Attribute bits of a cell. */
export const BOLD = 1, ITALIC = 2, UNDERLINE = 4, STRIKE = 8, DIM = 16;

/**
 * Every visible cell as a person sees it, row-major: its characters, how many columns it spans (2 for a wide
 * character, 0 for the column a wide character covers), its colours in the theme (inverse video already applied)
 * and attribute bits.
 */
export interface CellGrid {
  readonly width: number;
  readonly height: number;
  readonly theme: Theme;
  readonly chars: string[];
  readonly widths: Uint8Array;
  readonly fg: Uint32Array;
  readonly bg: Uint32Array;
  readonly attrs: Uint8Array;
}

/**
 * Replays tmux's `capture-pane -e` rows in a real terminal emulator (@xterm/headless), then reads back every cell's
 * character, colours and attributes: one model for HTML, SVG and PNG.
 *
 * The emulator is loaded on the first snapshot, not at start-up: it is the largest module and most sessions never
 * render a screen. The package's "module" field names a file it does not ship, which the bundler would follow; the
 * explicit CommonJS entry works for `deno run` and `deno bundle` alike. Deno exposes the CommonJS module as a default
 * export.
 */
export class TerminalEmulator {
  #terminal: Promise<typeof TerminalType> | null = null;

  async cells(screen: Screen, theme: Theme, pacer: Pacer): Promise<CellGrid> {
    this.#terminal ??= import("@xterm/headless/lib-headless/xterm-headless.js").then(
      (module) => (module.default as unknown as { Terminal: typeof TerminalType }).Terminal,
    );
    return readCells(await this.#terminal, screen, theme, pacer);
  }
}

async function readCells(Terminal: typeof TerminalType, screen: Screen, theme: Theme, pacer: Pacer) {
  const { cursor } = screen.state;
  const width = Math.max(1, screen.state.width);
  const height = Math.max(1, screen.state.height);
  // allowProposedApi: buffer cell attribute reads (getFgColor, isBold, ...) are "proposed" API in xterm.js.
  const term = new Terminal({ cols: width, rows: height, scrollback: 0, allowProposedApi: true });
  const chunks = screen.rows.slice(0, height).map((row, y) => y ? `\r\n${row}` : row);
  chunks.push(`\x1b[${cursor.y + 1};${cursor.x + 1}H`);
  await replay(term, chunks, pacer);
  const size = width * height;
  const grid: CellGrid = {
    width,
    height,
    theme,
    chars: new Array<string>(size).fill(" "),
    widths: new Uint8Array(size),
    fg: new Uint32Array(size),
    bg: new Uint32Array(size),
    attrs: new Uint8Array(size),
  };
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  try {
    for (let y = 0; y < height; y++) {
      const line = buffer.getLine(y);
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (!line?.getCell(x, cell)) {
          [grid.widths[i], grid.fg[i], grid.bg[i]] = [1, theme.foreground, theme.background];
          continue;
        }
        grid.widths[i] = cell.getWidth();
        if (grid.widths[i] === 0) grid.chars[i] = ""; // the column a wide character covers
        else if (!cell.isInvisible()) grid.chars[i] = cell.getChars() || " ";
        readStyle(cell, theme, grid, i);
      }
      await pacer.breathe();
    }
  } finally {
    term.dispose();
  }
  return grid;
}

/**
 * Feeds the emulator 16 KiB at a time: it parses each write in one go and yields between queued writes only after
 * 12 ms, longer than a slice should be. A busy 200×50 screen is 27 KiB, parsed in 2–6 ms.
 */
async function replay(term: TerminalType, chunks: string[], pacer: Pacer): Promise<void> {
  let batch = "";
  for (const [i, chunk] of chunks.entries()) {
    batch += chunk;
    if (batch.length < 16384 && i < chunks.length - 1) continue;
    const data = batch;
    batch = "";
    await new Promise<void>((resolve) => term.write(data, resolve));
    await pacer.breathe();
  }
}

function readStyle(cell: IBufferCell, theme: Theme, grid: CellGrid, i: number): void {
  let fg = cell.isFgDefault() ? theme.foreground : themeColor(theme, cell.getFgColor(), cell.isFgRGB());
  let bg = cell.isBgDefault() ? theme.background : themeColor(theme, cell.getBgColor(), cell.isBgRGB());
  if (cell.isInverse()) [fg, bg] = [bg, fg];
  grid.fg[i] = fg;
  grid.bg[i] = bg;
  grid.attrs[i] = (cell.isBold() ? BOLD : 0) | (cell.isItalic() ? ITALIC : 0) |
    (cell.isUnderline() ? UNDERLINE : 0) | (cell.isStrikethrough() ? STRIKE : 0) | (cell.isDim() ? DIM : 0);
}
