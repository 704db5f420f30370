/** Colours of the rendered terminal: a dark theme and the xterm 256-colour palette. */
export const THEME = {
  background: "#1e1e1e",
  foreground: "#d4d4d4",
  cursor: "#d4d4d4",
} as const;

// The 16 ANSI colours (Tango, as xterm.js and GNOME Terminal show them).
const ANSI16 = [
  "#2e3436",
  "#cc0000",
  "#4e9a06",
  "#c4a000",
  "#3465a4",
  "#75507b",
  "#06989a",
  "#d3d7cf",
  "#555753",
  "#ef2929",
  "#8ae234",
  "#fce94f",
  "#729fcf",
  "#ad7fa8",
  "#34e2e2",
  "#eeeeec",
];

const hex = (n: number) => n.toString(16).padStart(2, "0");

/** A palette index (0–255) or a 24-bit RGB value as CSS `#rrggbb`. */
export function colorOf(value: number, rgb: boolean): string {
  if (rgb) return `#${value.toString(16).padStart(6, "0")}`;
  if (value < 16) return ANSI16[value] ?? ANSI16[7];
  if (value < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const i = value - 16;
    return `#${hex(levels[Math.floor(i / 36)])}${hex(levels[Math.floor(i / 6) % 6])}${hex(levels[i % 6])}`;
  }
  const grey = 8 + (value - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}
