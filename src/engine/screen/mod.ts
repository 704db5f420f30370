/** Screen: a pane's visible screen and state, and its rendering as HTML or SVG the way a person sees it. */
export { readScreen, type Screen, type ScreenState } from "./snapshot.ts";
export { ScreenRenderer, toHtml, toSvg } from "./snapshot_render.ts";
export { PngRenderer } from "./png.ts";
export { DEFAULT_THEME, type Theme, THEME_NAMES, themeColor, type ThemeName, THEMES } from "./themes.ts";
