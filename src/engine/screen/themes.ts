/** The colour schemes a rendered screen (HTML, SVG, PNG) can be drawn in. Colours are 0xRRGGBB numbers. */
export const THEME_NAMES = ["dark", "light"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const DEFAULT_THEME: ThemeName = "dark";

/** What a theme decides: the default colours and the 256-colour palette (its first 16 are the theme's own). */
export interface Theme {
  readonly name: ThemeName;
  readonly background: number;
  readonly foreground: number;
  readonly cursor: number;
  /** Palette colours 0–255: the 16 ANSI colours, then the xterm 6×6×6 cube and 24 greys. */
  readonly palette: readonly number[];
}

const CUBE = [0, 0x5f, 0x87, 0xaf, 0xd7, 0xff];

/** The xterm palette above 15, the same in every theme. */
function xtermPalette(ansi: number[]): readonly number[] {
  const out = [...ansi];
  for (let i = 0; i < 216; i++) {
    out.push(CUBE[Math.floor(i / 36)] << 16 | CUBE[Math.floor(i / 6) % 6] << 8 | CUBE[i % 6]);
  }
  for (let i = 0; i < 24; i++) out.push((8 + i * 10) * 0x010101);
  return Object.freeze(out);
}

// Dark: Tango, as xterm.js and GNOME Terminal show them.
const DARK: Theme = Object.freeze({
  name: "dark",
  background: 0x1e1e1e,
  foreground: 0xd4d4d4,
  cursor: 0xd4d4d4,
  palette: xtermPalette([
    ...[0x2e3436, 0xcc0000, 0x4e9a06, 0xc4a000, 0x3465a4, 0x75507b, 0x06989a, 0xd3d7cf],
    ...[0x555753, 0xef2929, 0x8ae234, 0xfce94f, 0x729fcf, 0xad7fa8, 0x34e2e2, 0xeeeeec],
  ]),
});

// On white, Tango's yellow, cyan and bright colours nearly vanish. Here every colour keeps its hue but is dark enough
// to read as text on the background (WCAG contrast ≥ 4.5:1 for 1–6, ≥ 4:1 for 9–14), while "white" (7, 15) stays
// light so the black-on-white bars programs draw with reverse video or `ESC[47m` still read.
const LIGHT: Theme = Object.freeze({
  name: "light",
  background: 0xffffff,
  foreground: 0x1e1e1e,
  cursor: 0x1e1e1e,
  palette: xtermPalette([
    ...[0x2e3436, 0xb21818, 0x18781e, 0x8a6d00, 0x1e55b3, 0x9c2fa0, 0x0b7d86, 0xa0a0a0],
    ...[0x6e6e6e, 0xd0212a, 0x2a8a2a, 0xa07800, 0x3a6fd8, 0xb338b8, 0x0e8a94, 0xc8c8c8],
  ]),
});

export const THEMES: Readonly<Record<ThemeName, Theme>> = Object.freeze({ dark: DARK, light: LIGHT });

/** A palette index (0–255) or a 24-bit RGB value, in `theme`. */
export function themeColor(theme: Theme, value: number, rgb: boolean): number {
  return rgb ? value & 0xffffff : theme.palette[value] ?? theme.foreground;
}

/** `0xRRGGBB` as CSS `#rrggbb`. */
export function cssColor(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, "0")}`;
}
