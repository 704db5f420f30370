import type { Screen } from "./snapshot.ts";
import { BOLD, type CellGrid, DIM, ITALIC, STRIKE, UNDERLINE } from "./screen_cells.ts";
import { cssColor } from "./themes.ts";

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
interface Run {
  col: number;
  width: number;
  text: string;
  style: Style;
}

/** Every row as runs of equally styled cells (a wide character is one run entry two columns wide). */
function runsOf(grid: CellGrid): Run[][] {
  const out: Run[][] = [];
  for (let y = 0; y < grid.height; y++) {
    const runs: Run[] = [];
    for (let x = 0; x < grid.width; x++) {
      const i = y * grid.width + x;
      const w = grid.widths[i];
      if (w === 0) continue; // the column a wide character covers
      const last = runs[runs.length - 1];
      if (last && sameStyle(grid, y * grid.width + last.col, i)) {
        last.text += grid.chars[i];
        last.width += w;
      } else {
        runs.push({ col: x, width: w, text: grid.chars[i], style: styleOf(grid, i) });
      }
    }
    out.push(runs);
  }
  return out;
}

function styleOf(grid: CellGrid, i: number): Style {
  const attrs = grid.attrs[i];
  return {
    fg: cssColor(grid.fg[i]),
    bg: cssColor(grid.bg[i]),
    bold: (attrs & BOLD) !== 0,
    italic: (attrs & ITALIC) !== 0,
    underline: (attrs & UNDERLINE) !== 0,
    strike: (attrs & STRIKE) !== 0,
    dim: (attrs & DIM) !== 0,
  };
}

function sameStyle(grid: CellGrid, a: number, b: number): boolean {
  return grid.fg[a] === grid.fg[b] && grid.bg[a] === grid.bg[b] && grid.attrs[a] === grid.attrs[b];
}

function themeCss({ theme }: CellGrid) {
  return {
    background: cssColor(theme.background),
    foreground: cssColor(theme.foreground),
    cursor: cssColor(theme.cursor),
  };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

const FONT = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

/** Self-contained HTML (inline styles only): a `<pre>` grid with coloured spans and the cursor. */
export function toHtml(screen: Screen, grid: CellGrid): string {
  const { cursor } = screen.state;
  const theme = themeCss(grid);
  const lines = runsOf(grid).map((runs, y) =>
    runs.map((run) => {
      const css = [`color:${run.style.fg}`];
      if (run.style.bg !== theme.background) css.push(`background:${run.style.bg}`);
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
          `<span style="background:${theme.cursor};color:${theme.background}">${escapeXml(at[i] ?? " ")}</span>` +
          escapeXml(at.slice(i + 1).join(""));
      }
      return `<span style="${css.join(";")}">${text}</span>`;
    }).join("")
  );
  return `<pre style="margin:0;padding:8px;display:inline-block;background:${theme.background};` +
    `color:${theme.foreground};font:14px/1.2 ${escapeXml(FONT)}">${lines.join("\n")}</pre>`;
}

const CELL_W = 8.4; // 0.6 em at 14 px: the advance of common monospace fonts
const CELL_H = 17;
const PAD = 8;

/** Self-contained SVG: background rects per run, text placed on the cell grid, a block cursor. */
export function toSvg(screen: Screen, grid: CellGrid): string {
  const { width, height, cursor } = screen.state;
  const theme = themeCss(grid);
  const w = Math.ceil(width * CELL_W + 2 * PAD);
  const h = Math.ceil(height * CELL_H + 2 * PAD);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="${theme.background}"/>`,
    `<g font-family="${escapeXml(FONT)}" font-size="14" xml:space="preserve">`,
  ];
  runsOf(grid).forEach((runs, y) => {
    const top = PAD + y * CELL_H;
    for (const run of runs) {
      const x = (PAD + run.col * CELL_W).toFixed(1);
      const len = (run.width * CELL_W).toFixed(1);
      if (run.style.bg !== theme.background) {
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
        `fill="${theme.cursor}" fill-opacity="0.7"/>`,
    );
  }
  parts.push("</g>", "</svg>");
  return parts.join("\n");
}
