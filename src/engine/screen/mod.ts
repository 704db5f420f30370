export { PngRenderer } from "./png.ts";
export { DEFAULT_THEME, type Theme, THEME_NAMES, themeColor, type ThemeName, THEMES } from "./themes.ts";
