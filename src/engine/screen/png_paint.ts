import { BOLD, type CellGrid, DIM, STRIKE, UNDERLINE } from "./screen_cells.ts";
import { type GlyphAtlas, MISSING } from "./glyphs.ts";
import type { ScreenState } from "./snapshot.ts";
import type { Pacer } from "./pacer.ts";

/** A cell with nothing to draw but its background. */
export const BLANK = -1;
/** A wide character without a glyph: the two halves of a replacement box. */
export const WIDE_BOX = -2;
/** Coverage levels of the atlas: 0 is the background, 15 the full foreground. */
export const LEVELS = 15;

/** What each cell shows: its glyph and the colours it is drawn in, and the image's palette when it can have one. */
export interface Paint {
  /** Glyph number, BLANK or WIDE_BOX per cell; BLANK for the column a wide character covers. */
  readonly glyphs: Int32Array;
  readonly fg: Uint32Array;
  readonly bg: Uint32Array;
  /** UNDERLINE and STRIKE bits per cell. */
  readonly lines: Uint8Array;
  /** Colour → palette index when the image needs at most 256 colours (an 8-bit indexed PNG, 3× less to deflate). */
  readonly palette: Map<number, number> | null;
  /** How many steps from background to foreground the blends take: 15, or 7 or 3 to fit a palette. */
  readonly steps: number;
}

/** `bg` blended toward `fg` by `level`/15, channel by channel (the glyph's coverage, as terminals blend). */
export function mix(bg: number, fg: number, level: number): number {
  let out = 0;
  for (let shift = 16; shift >= 0; shift -= 8) {
    const b = bg >> shift & 255;
    out |= Math.round(b + ((fg >> shift & 255) - b) * level / LEVELS) << shift;
  }
  return out;
}

/**
 * Decides every cell's glyph and colours: inverse video is already in the grid; here the cursor block (the cell in
 * the cursor colour, its character in the background colour) and dim (60% of the way from the background, as the
 * HTML and SVG draw it) are applied, and the characters are looked up in the atlas.
 */
export async function paint(
  grid: CellGrid,
  atlas: GlyphAtlas,
  cursor: ScreenState["cursor"],
  pacer: Pacer,
): Promise<Paint> {
  const { width, height, theme } = grid;
  const size = width * height;
  const out = {
    glyphs: new Int32Array(size).fill(BLANK),
    fg: new Uint32Array(size),
    bg: new Uint32Array(size),
    lines: new Uint8Array(size),
  };
  let cursorAt = cursor.visible && cursor.x < width && cursor.y < height ? cursor.y * width + cursor.x : -1;
  if (cursorAt > 0 && grid.widths[cursorAt] === 0) cursorAt--; // on the right half of a wide character
  const backgrounds = new Set([theme.background]);
  const inked = new Set<number>(); // foreground × 2^24 + background of every cell with something drawn
  for (let i = 0; i < size; i++) {
    if (i % width === 0) await pacer.breathe();
    const w = grid.widths[i];
    let [fg, bg] = [grid.fg[i], grid.bg[i]];
    if (i === cursorAt) [fg, bg] = [theme.background, theme.cursor];
    const attrs = grid.attrs[i];
    if (attrs & DIM) fg = mix(bg, fg, 9);
    out.fg[i] = fg;
    out.bg[i] = bg;
    out.lines[i] = attrs & (UNDERLINE | STRIKE);
    if (w === 0) continue;
    out.glyphs[i] = glyphOf(atlas, grid.chars[i], w, (attrs & BOLD) !== 0);
    backgrounds.add(bg);
    if (out.glyphs[i] !== BLANK || out.lines[i] !== 0) inked.add(fg * 0x1000000 + bg);
  }
  return { ...out, ...planPalette(backgrounds, inked) };
}

/**
 * An 8-bit palette holds the backgrounds and, for every colour pair with ink, its blends. With the atlas's 15 steps
 * that fits about 15 pairs; a screen with more (an editor's 24-bit colour scheme) gets 7 steps, then 3 (2-bit
 * antialiasing, still smooth at 8×16: an editor screen is 119 KiB so, 334 KiB as RGB), and beyond that RGB, where
 * every blend is exact but there are 3× the bytes to deflate.
 */
function planPalette(backgrounds: Set<number>, inked: Set<number>): Pick<Paint, "palette" | "steps"> {
  for (const steps of [LEVELS, 7, 3]) {
    const colours = new Set(backgrounds);
    for (const pair of inked) {
      const [fg, bg] = [Math.floor(pair / 0x1000000), pair % 0x1000000];
      for (let level = 1; level <= LEVELS && colours.size <= 256; level++) {
        colours.add(mix(bg, fg, quantise(level, steps)));
      }
      if (colours.size > 256) break;
    }
    if (colours.size <= 256) return { palette: new Map([...colours].map((colour, index) => [colour, index])), steps };
  }
  return { palette: null, steps: LEVELS };
}

/** A coverage level (0–15) rounded to one of `steps` + 1 evenly spaced levels. */
export function quantise(level: number, steps: number): number {
  return Math.round(level * steps / LEVELS) * LEVELS / steps;
}

function glyphOf(atlas: GlyphAtlas, chars: string, width: number, bold: boolean): number {
  let cp = chars.codePointAt(0) ?? 32;
  if (chars.length > (cp > 0xffff ? 2 : 1)) {
    // A base character with combining marks: use its precomposed form when there is one ("e" + U+0301 → "é").
    const composed = chars.normalize("NFC");
    if (composed.length === 1) cp = composed.charCodeAt(0);
  }
  if (cp === 32) return BLANK;
  const glyph = atlas.glyph(cp, bold);
  return glyph >= 0 ? glyph : width === 2 ? WIDE_BOX : MISSING;
}
