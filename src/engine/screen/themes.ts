/** The colour schemes a rendered screen (SVG, HTML, PNG) can be drawn in. */
export const THEME_NAMES = ["dark", "light"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const DEFAULT_THEME: ThemeName = "dark";

/** What a theme decides: the default colours and the 16 ANSI colours. Colours 16–255 and RGB are absolute. */
export interface Theme {
  readonly name: ThemeName;
  readonly background: string;
  readonly foreground: string;
  readonly cursor: string;
  /** ANSI colours 0–15 as `#rrggbb`: black, red, green, yellow, blue, magenta, cyan, white, then the bright ones. */
  readonly ansi: readonly string[];
}

// The 16 ANSI colours of the dark theme: Tango, as xterm.js and GNOME Terminal show them.
const DARK: Theme = {
  name: "dark",
  background: "#1e1e1e",
  foreground: "#d4d4d4",
  cursor: "#d4d4d4",
  ansi: [
    ...["#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf"],
    ...["#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec"],
  ],
};

// On white, Tango's yellow, cyan and bright colours nearly vanish. Here every colour keeps its hue but is dark enough
// to read as text on the background (WCAG contrast ≥ 4.5:1 for 1–6, ≥ 4:1 for 9–14), while "white" (7, 15) stays
// light so the black-on-white bars programs draw with reverse video or `ESC[47m` still read.
const LIGHT: Theme = {
  name: "light",
  background: "#ffffff",
  foreground: "#1e1e1e",
  cursor: "#1e1e1e",
  ansi: [
    ...["#2e3436", "#b21818", "#18781e", "#8a6d00", "#1e55b3", "#9c2fa0", "#0b7d86", "#a0a0a0"],
    ...["#6e6e6e", "#d0212a", "#2a8a2a", "#a07800", "#3a6fd8", "#b338b8", "#0e8a94", "#c8c8c8"],
  ],
};

export const THEMES: Readonly<Record<ThemeName, Theme>> = { dark: DARK, light: LIGHT };

const hex = (n: number) => n.toString(16).padStart(2, "0");
const CUBE = [0, 95, 135, 175, 215, 255];

/** A palette index (0–255) or a 24-bit RGB value as CSS `#rrggbb`, in `theme`. */
export function themeColor(theme: Theme, value: number, rgb: boolean): string {
  if (rgb) return `#${value.toString(16).padStart(6, "0")}`;
  if (value < 16) return theme.ansi[value] ?? theme.ansi[7];
  if (value < 232) {
    const i = value - 16;
    return `#${hex(CUBE[Math.floor(i / 36)])}${hex(CUBE[Math.floor(i / 6) % 6])}${hex(CUBE[i % 6])}`;
  }
  const grey = 8 + (value - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}
