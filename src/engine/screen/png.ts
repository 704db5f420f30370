import type { Rasterise } from "./png_engine.ts";

/**
 * Turns the SVG of a screen into a PNG a vision model can look at. The rasteriser (resvg as WebAssembly plus two
 * fonts, 3.1 MiB) is imported on the first render, never at start-up, and kept on this instance: the caller owns
 * the cache and its lifetime, and nothing is held at module level.
 */
export class PngRenderer {
  #rasterise: Promise<Rasterise> | null = null;

  /** PNG bytes of a self-contained SVG (no external images or fonts), at the SVG's own pixel size. */
  async render(svg: string): Promise<Uint8Array> {
    const rasterise = await this.#load();
    return rasterise(svg);
  }

  #load(): Promise<Rasterise> {
    this.#rasterise ??= import("./png_engine.ts").then((engine) => engine.loadRasteriser()).catch((error) => {
      this.#rasterise = null; // let the next render try again rather than fail forever
      throw error;
    });
    return this.#rasterise;
  }
}
