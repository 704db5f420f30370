import type { IBufferCell, Terminal as TerminalType } from "@xterm/headless";
import type { Screen } from "./snapshot.ts";
import { colorOf, THEME } from "./snapshot_palette.ts";

/** One cell's look, as a person would see it. */
interface Style {
  fg: string;
  bg: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  dim: boolean;
}

/** A row split into runs of equally styled cells. */
export interface Run {
  col: number;
  width: number;
  text: string;
  style: Style;
}

/**
 * Replays tmux's `capture-pane -e` rows in a real terminal emulator (@xterm/headless), then reads
 * back every cell's character, colours and attributes: one model for both HTML and SVG.
 *
 * The emulator is loaded on the first snapshot, not at start-up: it is the largest module and
 * most sessions never render a screen. The package's "module" field names a file it does not
 * ship, which the bundler would follow; the explicit CommonJS entry works for `deno run` and
 * `deno bundle` alike. Deno exposes the CommonJS module as a default export.
 */
export class ScreenRenderer {
  #terminal: Promise<typeof TerminalType> | null = null;

  /** Every visible row as runs of equally styled cells. */
  async runs(screen: Screen): Promise<Run[][]> {
    this.#terminal ??= import("@xterm/headless/lib-headless/xterm-headless.js").then(
      (module) => (module.default as unknown as { Terminal: typeof TerminalType }).Terminal,
    );
    return screenRuns(await this.#terminal, screen);
  }
}

async function screenRuns(Terminal: typeof TerminalType, screen: Screen): Promise<Run[][]> {
  const { width, height, cursor } = screen.state;
  // allowProposedApi: buffer cell attribute reads (getFgColor, isBold, ...) are "proposed" API in xterm.js.
  const term = new Terminal({
    cols: Math.max(1, width),
    rows: Math.max(1, height),
    scrollback: 0,
    allowProposedApi: true,
  });
  const data = screen.rows.slice(0, height).join("\r\n") + `\x1b[${cursor.y + 1};${cursor.x + 1}H`;
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buffer = term.buffer.active;
  const out: Run[][] = [];
  const cell = buffer.getNullCell();
  for (let y = 0; y < height; y++) {
    const line = buffer.getLine(y);
    const runs: Run[] = [];
    for (let x = 0; line && x < width; x++) {
      line.getCell(x, cell);
      const w = cell.getWidth();
      if (w === 0) continue; // second half of a wide character
      const style = styleOf(cell);
      const ch = cell.isInvisible() ? " " : cell.getChars() || " ";
      const last = runs[runs.length - 1];
      if (last && sameStyle(last.style, style) && last.col + last.width === x) {
        last.text += ch;
        last.width += w;
      } else {
        runs.push({ col: x, width: w, text: ch, style });
      }
    }
    out.push(runs);
  }
  term.dispose();
  return out;
}

function styleOf(cell: IBufferCell): Style {
  let fg = cell.isFgDefault() ? THEME.foreground : colorOf(cell.getFgColor(), cell.isFgRGB());
  let bg = cell.isBgDefault() ? THEME.background : colorOf(cell.getBgColor(), cell.isBgRGB());
  if (cell.isInverse()) [fg, bg] = [bg, fg];
  return {
    fg,
    bg,
    bold: cell.isBold() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    strike: cell.isStrikethrough() !== 0,
    dim: cell.isDim() !== 0,
  };
}

function sameStyle(a: Style, b: Style): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.italic === b.italic &&
    a.underline === b.underline && a.strike === b.strike && a.dim === b.dim;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

const FONT = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

/** Self-contained HTML (inline styles only): a `<pre>` grid with coloured spans and the cursor. */
export function toHtml(screen: Screen, rows: Run[][]): string {
  const { cursor } = screen.state;
  const lines = rows.map((runs, y) =>
    runs.map((run) => {
      const css = [`color:${run.style.fg}`];
      if (run.style.bg !== THEME.background) css.push(`background:${run.style.bg}`);
      if (run.style.bold) css.push("font-weight:bold");
      if (run.style.italic) css.push("font-style:italic");
      if (run.style.dim) css.push("opacity:.6");
      const deco = [run.style.underline && "underline", run.style.strike && "line-through"].filter(Boolean);
      if (deco.length) css.push(`text-decoration:${deco.join(" ")}`);
      let text = escapeXml(run.text);
      if (cursor.visible && y === cursor.y && cursor.x >= run.col && cursor.x < run.col + run.width) {
        const at = [...run.text];
        const i = cursor.x - run.col;
        text = escapeXml(at.slice(0, i).join("")) +
          `<span style="background:${THEME.cursor};color:${THEME.background}">${escapeXml(at[i] ?? " ")}</span>` +
          escapeXml(at.slice(i + 1).join(""));
      }
      return `<span style="${css.join(";")}">${text}</span>`;
    }).join("")
  );
  return `<pre style="margin:0;padding:8px;display:inline-block;background:${THEME.background};` +
    `color:${THEME.foreground};font:14px/1.2 ${escapeXml(FONT)}">${lines.join("\n")}</pre>`;
}

const CELL_W = 8.4; // 0.6 em at 14 px: the advance of common monospace fonts
const CELL_H = 17;
const PAD = 8;

/** Self-contained SVG: background rects per run, text placed on the cell grid, a block cursor. */
export function toSvg(screen: Screen, rows: Run[][]): string {
  const { width, height, cursor } = screen.state;
  const w = Math.ceil(width * CELL_W + 2 * PAD);
  const h = Math.ceil(height * CELL_H + 2 * PAD);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="${THEME.background}"/>`,
    `<g font-family="${escapeXml(FONT)}" font-size="14" xml:space="preserve">`,
  ];
  rows.forEach((runs, y) => {
    const top = PAD + y * CELL_H;
    for (const run of runs) {
      const x = (PAD + run.col * CELL_W).toFixed(1);
      const len = (run.width * CELL_W).toFixed(1);
      if (run.style.bg !== THEME.background) {
        parts.push(`<rect x="${x}" y="${top}" width="${len}" height="${CELL_H}" fill="${run.style.bg}"/>`);
      }
      if (run.text.trim() === "" && !run.style.underline) continue;
      const attrs = [`x="${x}"`, `y="${top + 13}"`, `fill="${run.style.fg}"`, `textLength="${len}"`];
      if (run.style.bold) attrs.push('font-weight="bold"');
      if (run.style.italic) attrs.push('font-style="italic"');
      if (run.style.dim) attrs.push('fill-opacity="0.6"');
      const deco = [run.style.underline && "underline", run.style.strike && "line-through"].filter(Boolean);
      if (deco.length) attrs.push(`text-decoration="${deco.join(" ")}"`);
      parts.push(`<text ${attrs.join(" ")} lengthAdjust="spacing">${escapeXml(run.text)}</text>`);
    }
  });
  if (cursor.visible && cursor.y < height && cursor.x < width) {
    const x = (PAD + cursor.x * CELL_W).toFixed(1);
    parts.push(
      `<rect x="${x}" y="${PAD + cursor.y * CELL_H}" width="${CELL_W}" height="${CELL_H}" ` +
        `fill="${THEME.cursor}" fill-opacity="0.7"/>`,
    );
  }
  parts.push("</g>", "</svg>");
  return parts.join("\n");
}
