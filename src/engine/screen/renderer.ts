import type { Screen } from "./snapshot.ts";
import { TerminalEmulator } from "./screen_cells.ts";
import { toHtml, toSvg } from "./snapshot_render.ts";
import { PngRenderer, type PngScale } from "./png.ts";
import { Pacer } from "./pacer.ts";
import { DEFAULT_THEME, type ThemeName, THEMES } from "./themes.ts";

export type SnapshotFormat = "text" | "ansi" | "html" | "svg" | "png";

export interface RenderOptions {
  theme?: ThemeName;
  /** PNG only: 1 draws 8×16-pixel cells, 2 draws 16×32. */
  scale?: PngScale;
}

/**
 * Draws a screen the way a person sees it: HTML, SVG or PNG. Owned by the App, it keeps what it loads on first use
 * (the terminal emulator, the glyph atlas of each PNG scale), so start-up pays for none of it. Every step works in
 * slices of a few milliseconds, so a large screen never holds up other callers.
 */
export class ScreenRenderer {
  readonly #emulator = new TerminalEmulator();
  readonly #png = new PngRenderer();

  /** The screen in `format`: rows as read (text, ansi), markup (html, svg) or PNG bytes. */
  render(screen: Screen, format: SnapshotFormat, options: RenderOptions = {}): Promise<string | Uint8Array> {
    if (format === "png") return this.png(screen, options);
    if (format === "html" || format === "svg") return this.markup(screen, format, options);
    return Promise.resolve(screen.rows.join("\n"));
  }

  async markup(screen: Screen, format: "html" | "svg", options: RenderOptions = {}): Promise<string> {
    const grid = await this.#emulator.cells(screen, THEMES[options.theme ?? DEFAULT_THEME], new Pacer());
    return format === "html" ? toHtml(screen, grid) : toSvg(screen, grid);
  }

  async png(screen: Screen, options: RenderOptions = {}): Promise<Uint8Array> {
    const pacer = new Pacer();
    const grid = await this.#emulator.cells(screen, THEMES[options.theme ?? DEFAULT_THEME], pacer);
    return await this.#png.render(grid, screen.state.cursor, options.scale ?? 1, pacer);
  }
}
