import type { CellGrid } from "./screen_cells.ts";
import type { ScreenState } from "./snapshot.ts";
import { GlyphAtlas } from "./glyphs.ts";
import type { Pacer } from "./pacer.ts";
import { paint } from "./png_paint.ts";
import { Rasteriser } from "./png_raster.ts";
import { PngEncoder } from "./png_encode.ts";
import { ToolError } from "../errors.ts";

/** 1 draws 8×16-pixel cells, 2 draws 16×32. */
export type PngScale = 1 | 2;

/** Padding around the cells, in 1× pixels (one cell width, as the HTML and SVG have). */
const PAD = 8;
/** The largest side a PNG may have: what vision models accept, and a bound on memory (an RGB row band). */
const MAX_SIDE = 8000;

/**
 * Draws a screen's cells as a PNG from a glyph atlas, without any SVG or font engine: glyph bitmaps are copied
 * into scanlines in the cells' colours and deflated band by band. The work is cut into slices of a few milliseconds
 * (`Pacer`) so one snapshot never holds up other callers. The atlas (about 100 KiB of generated source) is imported
 * and decoded on the first PNG of each scale and kept on this instance, which the App owns.
 */
export class PngRenderer {
  readonly #atlases = new Map<PngScale, Promise<GlyphAtlas>>();

  async render(grid: CellGrid, cursor: ScreenState["cursor"], scale: PngScale, pacer: Pacer): Promise<Uint8Array> {
    const atlas = await this.#atlas(scale);
    const [width, height] = [grid.width * atlas.cellWidth, grid.height * atlas.cellHeight].map((n) => n + 2 * PAD);
    if (width > MAX_SIDE || height > MAX_SIDE) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot draw a ${grid.width}x${grid.height} screen as PNG at scale ${scale}: ${width}x${height} pixels, ` +
          `more than ${MAX_SIDE} on a side`,
        scale > 1 ? "Ask for scale 1, or use format svg or text." : "Use format svg or text.",
      );
    }
    const painted = await paint(grid, atlas, cursor, pacer);
    const raster = new Rasteriser(grid, painted, atlas, PAD * scale);
    const encoder = new PngEncoder(raster.width, raster.height, painted.palette && [...painted.palette.keys()]);
    await encoder.write(raster.padding());
    for (let y = 0; y < grid.height; y++) {
      await pacer.breathe();
      await encoder.write(raster.band(y));
    }
    await encoder.write(raster.padding());
    await pacer.breathe();
    return await encoder.finish();
  }

  #atlas(scale: PngScale): Promise<GlyphAtlas> {
    let atlas = this.#atlases.get(scale);
    if (!atlas) {
      atlas = import("../../vendor/glyph_atlas.ts").then(({ ATLASES }) => GlyphAtlas.load(ATLASES[scale - 1]));
      atlas.catch(() => this.#atlases.delete(scale)); // a failed load is retried by the next render
      this.#atlases.set(scale, atlas);
    }
    return atlas;
  }
}
