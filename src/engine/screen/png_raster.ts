import { type CellGrid, STRIKE, UNDERLINE } from "./screen_cells.ts";
import { type GlyphAtlas, WIDE_LEFT, WIDE_RIGHT } from "./glyphs.ts";
import { BLANK, LEVELS, mix, type Paint, quantise, WIDE_BOX } from "./png_paint.ts";

/**
 * Draws cells straight into PNG scanlines (a filter byte 0, then the pixels): one palette index per pixel when the
 * paint has a palette, else three RGB bytes. A band is the scanlines of one cell row, so the encoder can deflate
 * each while the next is drawn and the event loop can breathe between them. Every band is drawn into the same
 * buffer: deflate it before asking for the next (thousands of short-lived buffers grew the server's RSS by tens
 * of MB at 2×, measured).
 */
export class Rasteriser {
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
  readonly stride: number;
  readonly #ramps = new Map<number, Uint8Array>();
  readonly #background: number;
  #band: Uint8Array<ArrayBuffer> | null = null;

  constructor(
    private readonly grid: CellGrid,
    private readonly paint: Paint,
    private readonly atlas: GlyphAtlas,
    readonly pad: number,
  ) {
    this.width = grid.width * atlas.cellWidth + 2 * pad;
    this.height = grid.height * atlas.cellHeight + 2 * pad;
    this.channels = paint.palette ? 1 : 3;
    this.stride = 1 + this.width * this.channels;
    this.#background = grid.theme.background;
  }

  /** Scanlines of background: the padding above and below the cells. */
  padding(): Uint8Array<ArrayBuffer> {
    return this.#blankBand(this.pad);
  }

  /** The scanlines of cell row `y`, in the buffer the previous band was drawn in. */
  band(y: number): Uint8Array<ArrayBuffer> {
    const { grid, paint, atlas } = this;
    const band = this.#blankBand(atlas.cellHeight, this.#band);
    this.#band = band;
    for (let x = 0; x < grid.width; x++) {
      const i = y * grid.width + x;
      const cells = grid.widths[i];
      const [glyph, fg, bg, lines] = [paint.glyphs[i], paint.fg[i], paint.bg[i], paint.lines[i]];
      if (cells === 0 || (glyph === BLANK && bg === this.#background && lines === 0)) continue;
      const left = this.pad + x * atlas.cellWidth;
      const span = cells * atlas.cellWidth;
      if (bg !== this.#background) this.#fill(band, left, 0, span, atlas.cellHeight, bg);
      const ramp = this.#ramp(fg, bg);
      if (glyph === WIDE_BOX) {
        this.#blit(band, WIDE_LEFT, left, ramp);
        this.#blit(band, WIDE_RIGHT, left + atlas.cellWidth, ramp);
      } else if (glyph !== BLANK) {
        this.#blit(band, glyph, cells === 2 ? left + atlas.cellWidth / 2 : left, ramp); // a wide glyph, centred
      }
      if (lines & UNDERLINE) this.#fill(band, left, atlas.underline, span, atlas.line, fg);
      if (lines & STRIKE) this.#fill(band, left, atlas.strike, span, atlas.line, fg);
    }
    return band;
  }

  #blankBand(lines: number, reuse: Uint8Array<ArrayBuffer> | null = null): Uint8Array<ArrayBuffer> {
    const band = reuse ?? new Uint8Array(this.stride * lines);
    this.#fill(band, 0, 0, this.width, lines, this.#background);
    for (let line = 0; line < lines; line++) band[line * this.stride] = 0; // filter type: none
    return band;
  }

  /** Palette indices (or RGB bytes) of the 16 coverage levels from `bg` to `fg`. */
  #ramp(fg: number, bg: number): Uint8Array {
    const key = fg * 0x1000000 + bg;
    let ramp = this.#ramps.get(key);
    if (ramp) return ramp;
    ramp = new Uint8Array((LEVELS + 1) * this.channels);
    for (let level = 0; level <= LEVELS; level++) {
      const colour = mix(bg, fg, quantise(level, this.paint.steps));
      if (this.paint.palette) ramp[level] = this.paint.palette.get(colour)!;
      else ramp.set([colour >> 16, colour >> 8 & 255, colour & 255], level * 3);
    }
    this.#ramps.set(key, ramp);
    return ramp;
  }

  #fill(band: Uint8Array, left: number, top: number, width: number, lines: number, colour: number): void {
    const start = top * this.stride + 1 + left * this.channels;
    const end = start + width * this.channels;
    if (this.channels === 1) {
      const index = this.paint.palette!.get(colour)!;
      for (let line = 0; line < lines; line++) band.fill(index, start + line * this.stride, end + line * this.stride);
      return;
    }
    const [r, g, b] = [colour >> 16, colour >> 8 & 255, colour & 255];
    for (let p = start; p < end; p += 3) {
      band[p] = r;
      band[p + 1] = g;
      band[p + 2] = b;
    }
    for (let line = 1; line < lines; line++) band.copyWithin(start + line * this.stride, start, end);
  }

  #blit(band: Uint8Array, glyph: number, left: number, ramp: Uint8Array): void {
    const { cellWidth: cw, cellHeight: ch, levels } = this.atlas;
    const stride = this.stride;
    let src = glyph * cw * ch;
    if (this.channels === 1) {
      for (let y = 0, row = 1 + left; y < ch; y++, row += stride) {
        for (let x = 0; x < cw; x++, src++) if (levels[src] !== 0) band[row + x] = ramp[levels[src]];
      }
      return;
    }
    for (let y = 0, row = 1 + left * 3; y < ch; y++, row += stride) {
      for (let x = 0; x < cw; x++, src++) {
        const level = levels[src];
        if (level === 0) continue;
        const [p, r] = [row + x * 3, level * 3];
        band[p] = ramp[r];
        band[p + 1] = ramp[r + 1];
        band[p + 2] = ramp[r + 2];
      }
    }
  }
}
