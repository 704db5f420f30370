/**
 * Glyphs drawn from geometry rather than a font, for `scripts/gen_glyphs.ts`: box drawing (U+2500–257F), block
 * elements (U+2580–259F), braille (U+2800–28FF), the four Powerline triangles (U+E0B0–E0B3) and the replacement
 * boxes. Lines land on whole pixels of the cell grid and every arm reaches the cell edge, so borders and bars join
 * across cells without gaps or blur, which a font scaled to an 8×16 cell cannot promise.
 */

/** A cell of coverage values 0–1, row by row. */
export interface Coverage {
  width: number;
  height: number;
  data: Float32Array;
}

export function blank(width: number, height: number): Coverage {
  return { width, height, data: new Float32Array(width * height) };
}

/** Exact area coverage of an axis-aligned rectangle (fractional edges shade partly), merged by maximum. */
function rect(c: Coverage, x0: number, y0: number, x1: number, y1: number, alpha = 1): void {
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(c.height, Math.ceil(y1)); y++) {
    const cy = Math.min(y1, y + 1) - Math.max(y0, y);
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(c.width, Math.ceil(x1)); x++) {
      const cx = Math.min(x1, x + 1) - Math.max(x0, x);
      const i = y * c.width + x;
      c.data[i] = Math.max(c.data[i], cx * cy * alpha);
    }
  }
}

/** Coverage of any shape given as an inside test, by 8×8 supersampling. */
function shape(c: Coverage, inside: (x: number, y: number) => boolean): void {
  const n = 8;
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      let hits = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) if (inside(x + (sx + 0.5) / n, y + (sy + 0.5) / n)) hits++;
      }
      const i = y * c.width + x;
      c.data[i] = Math.max(c.data[i], hits / (n * n));
    }
  }
}

/**
 * The arms of U+2500–257F as left, right, up, down: 0 none, 1 light, 2 heavy, 3 double ("." = drawn specially:
 * dashes, arcs, diagonals). Read from the Unicode character names ("DOWN LIGHT AND RIGHT HEAVY" → r 2, d 1).
 */
const BOX_ARMS = ("1100 2200 0011 0022 .... .... .... .... .... .... .... .... 0101 0201 0102 0202 1001 2001 1002 " +
  "2002 0110 0210 0120 0220 1010 2010 1020 2020 0111 0211 0121 0112 0122 0221 0212 0222 1011 2011 1021 1012 1022 " +
  "2021 2012 2022 1101 2101 1201 2201 1102 2102 1202 2202 1110 2110 1210 2210 1120 2120 1220 2220 1111 2111 1211 " +
  "2211 1121 1112 1122 2121 1221 2112 1212 2221 2212 2122 1222 2222 .... .... .... .... 3300 0033 0301 0103 0303 " +
  "3001 1003 3003 0310 0130 0330 3010 1030 3030 0311 0133 0333 3011 1033 3033 3301 1103 3303 3310 1130 3330 3311 " +
  "1133 3333 .... .... .... .... .... .... .... 1000 0010 0100 0001 2000 0020 0200 0002 1200 0012 2100 0021").split(
    " ",
  );

/** Dashed lines: code point → [segments, weight, vertical]. */
const DASHES: Record<number, [number, number, boolean]> = {
  0x2504: [3, 1, false],
  0x2505: [3, 2, false],
  0x2506: [3, 1, true],
  0x2507: [3, 2, true],
  0x2508: [4, 1, false],
  0x2509: [4, 2, false],
  0x250a: [4, 1, true],
  0x250b: [4, 2, true],
  0x254c: [2, 1, false],
  0x254d: [2, 2, false],
  0x254e: [2, 1, true],
  0x254f: [2, 2, true],
};

/** Pixel geometry of lines at one scale: `t` is a light line's thickness, (cx, cy) the centre of the cross. */
class Grid {
  readonly cx: number;
  readonly cy: number;
  constructor(readonly w: number, readonly h: number, readonly t: number) {
    this.cx = w / 2 - t / 2;
    this.cy = h / 2 - t / 2;
  }
  half(weight: number): number {
    return weight === 0 ? 0 : weight === 1 ? this.t / 2 : 1.5 * this.t;
  }
}

/**
 * One arm as rectangles in its own frame: `along` runs from the cell edge toward the centre, `across` is
 * perpendicular. `before`/`after` are the perpendicular arms on the low and high side of the across axis.
 */
function arm(
  g: Grid,
  weight: number,
  towardHigh: boolean,
  before: number,
  after: number,
  centreAlong: number,
  centreAcross: number,
  length: number,
): [number, number, number, number][] {
  const t = g.t;
  // `reach`: how far past the centre the arm runs (negative: it stops short of it).
  const stop = (reach: number) => towardHigh ? [centreAlong - reach, length] : [0, centreAlong + reach];
  // Past the centre, an arm covers the crossing strokes so corners and tees are solid.
  const cover = Math.max(t / 2, g.half(before), g.half(after));
  if (weight !== 3) {
    const thick = weight === 1 ? t : 3 * t;
    let reach = cover;
    if (before === 3 && after === 3) reach = -t / 2; // a double line crosses: stop at its near line
    else if (before === 3 || after === 3) reach = 1.5 * t; // a double corner: run to its far line
    const [a0, a1] = stop(reach);
    return [[a0, a1, centreAcross - thick / 2, centreAcross + thick / 2]];
  }
  const out: [number, number, number, number][] = [];
  for (const side of [-1, 1]) {
    const same = side < 0 ? before : after;
    const other = side < 0 ? after : before;
    let reach = cover;
    if (same === 3) reach = -t / 2; // inner line of a corner or tee: ends at the crossing double's near line
    else if (other === 3) reach = 1.5 * t; // outer line: runs to the crossing double's far line
    const [a0, a1] = stop(reach);
    const across = centreAcross + side * t;
    out.push([a0, a1, across - t / 2, across + t / 2]);
  }
  return out;
}

function drawArms(c: Coverage, g: Grid, [l, r, u, d]: number[]): void {
  for (const [weight, high] of [[l, false], [r, true]] as const) {
    if (weight === 0) continue;
    for (const [a0, a1, c0, c1] of arm(g, weight, high, u, d, g.cx, g.cy, g.w)) rect(c, a0, c0, a1, c1);
  }
  for (const [weight, high] of [[u, false], [d, true]] as const) {
    if (weight === 0) continue;
    for (const [a0, a1, c0, c1] of arm(g, weight, high, l, r, g.cy, g.cx, g.h)) rect(c, c0, a0, c1, a1);
  }
}

function drawDashes(c: Coverage, g: Grid, [segments, weight, vertical]: [number, number, boolean]): void {
  const length = vertical ? g.h : g.w;
  const thick = weight === 1 ? g.t : 3 * g.t;
  const across = (vertical ? g.cx : g.cy) - thick / 2;
  const step = length / segments;
  for (let i = 0; i < segments; i++) {
    const a0 = Math.round(i * step);
    const a1 = Math.max(a0 + g.t, Math.round((i + 0.6) * step));
    if (vertical) rect(c, across, a0, across + thick, a1);
    else rect(c, a0, across, a1, across + thick);
  }
}

/** ╭╮╯╰: a quarter circle joining the centre lines, mirrored about the cross's centre for each corner. */
function drawArc(c: Coverage, g: Grid, flipX: boolean, flipY: boolean): void {
  const lineX = g.cx;
  const lineY = g.cy;
  const radius = Math.min(g.w, g.h) / 2;
  const [ox, oy] = [lineX + radius, lineY + radius];
  shape(c, (px, py) => {
    const x = flipX ? 2 * lineX - px : px;
    const y = flipY ? 2 * lineY - py : py;
    const ds = [];
    if (y >= oy) ds.push(Math.abs(x - lineX));
    if (x >= ox) ds.push(Math.abs(y - lineY));
    if (x <= ox && y <= oy) ds.push(Math.abs(Math.hypot(x - ox, y - oy) - radius));
    return Math.min(...ds) <= g.t / 2;
  });
}

function drawDiagonal(c: Coverage, g: Grid, rising: boolean): void {
  const len = Math.hypot(g.w, g.h);
  shape(c, (x, y) => {
    const yy = rising ? g.h - y : y;
    return Math.abs(x * g.h - yy * g.w) / len <= g.t * 0.6;
  });
}

function drawBlock(c: Coverage, cp: number): void {
  const { width: w, height: h } = c;
  const e = (n: number) => n / 8;
  if (cp === 0x2580) rect(c, 0, 0, w, h / 2);
  else if (cp >= 0x2581 && cp <= 0x2588) rect(c, 0, h * (1 - e(cp - 0x2580)), w, h);
  else if (cp >= 0x2589 && cp <= 0x258f) rect(c, 0, 0, w * e(0x2590 - cp), h);
  else if (cp === 0x2590) rect(c, w / 2, 0, w, h);
  else if (cp >= 0x2591 && cp <= 0x2593) rect(c, 0, 0, w, h, (cp - 0x2590) / 4); // shades as an even tint
  else if (cp === 0x2594) rect(c, 0, 0, w, h / 8);
  else if (cp === 0x2595) rect(c, w * 7 / 8, 0, w, h);
  else {
    // Quadrants ▖▗▘▙▚▛▜▝▞▟ as bits: upper left, upper right, lower left, lower right.
    const bits = [0b0010, 0b0001, 0b1000, 0b1011, 0b1001, 0b1110, 0b1101, 0b0100, 0b0110, 0b0111][cp - 0x2596];
    if (bits & 0b1000) rect(c, 0, 0, w / 2, h / 2);
    if (bits & 0b0100) rect(c, w / 2, 0, w, h / 2);
    if (bits & 0b0010) rect(c, 0, h / 2, w / 2, h);
    if (bits & 0b0001) rect(c, w / 2, h / 2, w, h);
  }
}

/** Braille: dot n of the pattern sits in column n < 3 || n === 6 ? 0 : 1, rows 0–3. */
function drawBraille(c: Coverage, g: Grid, pattern: number): void {
  const dots: [number, number][] = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [0, 3], [1, 3]];
  const r = g.t * 1.15;
  shape(
    c,
    (x, y) =>
      dots.some(([col, row], bit) =>
        (pattern >> bit & 1) === 1 && Math.hypot(x - g.w * (col * 2 + 1) / 4, y - g.h * (row * 2 + 1) / 8) <= r
      ),
  );
}

/** Powerline separators: solid and outlined triangles pointing right (E0B0, E0B1) and left (E0B2, E0B3). */
function drawPowerline(c: Coverage, g: Grid, cp: number): void {
  const left = cp >= 0xe0b2;
  const solid = cp % 2 === 0;
  shape(c, (px, y) => {
    const x = left ? g.w - px : px;
    const edge = g.w * (1 - Math.abs(y - g.h / 2) / (g.h / 2)); // the slanted side at this row
    if (solid) return x <= edge;
    const slope = Math.hypot(g.w, g.h / 2) / (g.h / 2);
    return Math.abs(x - edge) / slope <= g.t * 0.6;
  });
}

/** The replacement box for a character with no glyph: a whole cell, or the left or right half of a wide one. */
export function replacementBox(width: number, height: number, part: "cell" | "left" | "right", t: number): Coverage {
  const c = blank(width, height);
  const x0 = part === "right" ? 0 : t;
  const x1 = part === "left" ? width : width - t;
  rect(c, x0, 2 * t, x1, 3 * t);
  rect(c, x0, height - 3 * t, x1, height - 2 * t);
  if (part !== "right") rect(c, t, 2 * t, 2 * t, height - 2 * t);
  if (part !== "left") rect(c, width - 2 * t, 2 * t, width - t, height - 2 * t);
  return c;
}

/** Code points this module draws. */
export function drawnCodePoints(): number[] {
  const out: number[] = [];
  for (let cp = 0x2500; cp <= 0x259f; cp++) out.push(cp);
  for (let cp = 0x2800; cp <= 0x28ff; cp++) out.push(cp);
  for (let cp = 0xe0b0; cp <= 0xe0b3; cp++) out.push(cp);
  return out;
}

/** Draws one of `drawnCodePoints()` into a cell of `width`×`height` pixels with light lines `t` pixels thick. */
export function drawGlyph(cp: number, width: number, height: number, t: number): Coverage {
  const c = blank(width, height);
  const g = new Grid(width, height, t);
  if (cp >= 0x2580 && cp <= 0x259f) drawBlock(c, cp);
  else if (cp >= 0x2800 && cp <= 0x28ff) drawBraille(c, g, cp - 0x2800);
  else if (cp >= 0xe0b0 && cp <= 0xe0b3) drawPowerline(c, g, cp);
  else if (DASHES[cp]) drawDashes(c, g, DASHES[cp]);
  else if (cp >= 0x256d && cp <= 0x2570) drawArc(c, g, cp === 0x256e || cp === 0x256f, cp === 0x256f || cp === 0x2570);
  else if (cp >= 0x2571 && cp <= 0x2573) {
    if (cp !== 0x2572) drawDiagonal(c, g, true);
    if (cp !== 0x2571) drawDiagonal(c, g, false);
  } else drawArms(c, g, [...BOX_ARMS[cp - 0x2500]].map(Number));
  return c;
}
