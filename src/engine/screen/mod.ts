/** Screen: a pane's visible screen and state, and its rendering as HTML, SVG or PNG the way a person sees it. */
export { readScreen, type Screen, type ScreenState } from "./snapshot.ts";
export { type RenderOptions, ScreenRenderer, type SnapshotFormat } from "./renderer.ts";
export type { PngScale } from "./png.ts";
export { DEFAULT_THEME, type Theme, THEME_NAMES, themeColor, type ThemeName, THEMES } from "./themes.ts";
export { snapshotFile, writeSnapshotFile } from "./snapshot_file.ts";
