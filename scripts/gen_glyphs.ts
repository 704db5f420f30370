/**
 * Generates src/vendor/glyph_atlas.ts, the glyph bitmaps PNG snapshots are drawn with:
 *   - letters, punctuation and symbols from DejaVu Sans Mono (regular and bold), rasterised once here with resvg
 *     (WebAssembly, a dev dependency) and scaled to exactly fill a cell (ascender to descender = cell height);
 *   - box drawing, block elements, braille and Powerline triangles drawn from geometry (scripts/glyph_shapes.ts);
 *   - replacement boxes for characters without a glyph (one cell, and the halves of a wide one).
 * Each pixel is a 4-bit coverage level; the planes are deflated and stored as base64 text.
 * Run: deno run -A scripts/gen_glyphs.ts [--preview out.png]
 */
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { deflateSync } from "node:zlib";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { encode } from "fast-png";
import { type Coverage, drawGlyph, drawnCodePoints, replacementBox } from "./glyph_shapes.ts";

const { values } = parseArgs({ args: Deno.args, options: { preview: { type: "string" } } });
const require = createRequire(import.meta.url);
const OUT = new URL("../src/vendor/glyph_atlas.ts", import.meta.url).pathname;
const fontFile = (name: string) => Deno.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
const REGULAR = fontFile("DejaVuSansMono.ttf");
const BOLD = fontFile("DejaVuSansMono-Bold.ttf");

/** Cell sizes: 8×16 pixels at 1×, and the same design at 2× for sharper images. */
const SCALES = [{ scale: 1, width: 8, height: 16 }, { scale: 2, width: 16, height: 32 }];

/** Font characters wanted (kept when DejaVu Sans Mono has them): what shells, editors, pagers and TUIs print. */
const WANTED: (number | [number, number])[] = [
  [0x20, 0x7e], // ASCII
  [0xa0, 0x17f], // Latin-1, Latin Extended-A (Central European, Turkish, Baltic)
  [0x391, 0x3a9], // Greek
  [0x3b1, 0x3c9],
  0x401, // Cyrillic
  [0x410, 0x44f],
  0x451,
  [0x2010, 0x2016], // dashes, quotes, daggers, bullets, ellipsis, per mille, primes, angle quotes
  [0x2018, 0x2026],
  [0x2030, 0x2033],
  [0x2039, 0x203c],
  [0x2070, 0x2089], // super- and subscript digits
  ...[0x20ac, 0x20b9, 0x20bd, 0x2116, 0x2122], // € ₹ ₽ № ™
  [0x2190, 0x2199], // arrows: ← ↑ → ↓ ↔ ↕ ↖ ↗ ↘ ↙ ↩ ↪ ↰–↵ ↺ ↻ ⇄ ⇅ ⇆ ⇐–⇕ ⇤ ⇥ ⇧
  ...[0x21a9, 0x21aa, 0x21ba, 0x21bb, 0x21e4, 0x21e5, 0x21e7],
  [0x21b0, 0x21b5],
  [0x21c4, 0x21c6],
  [0x21d0, 0x21d5],
  // mathematical operators: ∀ ∂ ∃ ∅ ∆ ∇ ∈ ∉ ∏ ∑ − ∓ ∗ ∘ ∙ √ ∝ ∞ ∧ ∨ ∩ ∪ ∫ ∴ ∼ ≈ ≠ ≡ ≤ ≥ ⊂ ⊃ ⊆ ⊇ ⊕ ⊗ ⊢ ⊤ ⊥ ⋅ ⋆ ⋯
  ...[0x2200, 0x2202, 0x2203, 0x2205, 0x2206, 0x2207, 0x2208, 0x2209, 0x220f, 0x2211, 0x2212, 0x2213, 0x2217],
  ...[0x2218, 0x2219, 0x221a, 0x221d, 0x221e, 0x2227, 0x2228, 0x2229, 0x222a, 0x222b, 0x2234, 0x223c, 0x2248],
  ...[0x2260, 0x2261, 0x2264, 0x2265, 0x2282, 0x2283, 0x2286, 0x2287, 0x2295, 0x2297, 0x22a2, 0x22a4, 0x22a5],
  ...[0x22c5, 0x22c6, 0x22ef],
  // technical: ⌂ ⌃ ⌄ ⌈ ⌉ ⌊ ⌋ ⌘ ⌥ ⌦ ⌧ ⌨ ⌫ ⎋ ⏎ ⏏
  ...[0x2302, 0x2303, 0x2304, 0x2308, 0x2309, 0x230a, 0x230b, 0x2318, 0x2325, 0x2326, 0x2327, 0x2328, 0x232b],
  ...[0x238b, 0x23ce, 0x23cf],
  [0x25a0, 0x25ab], // geometric shapes: ■ □ ▪ ▫ ▲ △ ▶ ▷ ▸ ► ▼ ▽ ▾ ◀ ◁ ◂ ◄ ◆ ◇ ◈ ◉ ◊ ○ ◌ ◍ ◎ ● ◐ ◑ ◒ ◓ ◢–◥ ◯ ◻–◾
  [0x25b2, 0x25d3],
  [0x25e2, 0x25e5],
  0x25ef,
  [0x25fb, 0x25fe],
  // symbols: ☀ ☁ ★ ☆ ☎ ☐ ☑ ☒ ☠ ☢ ☹ ☺ ☻ ♀ ♂ ♠–♧ ♩–♯ ♻ ⚐ ⚑ ⚙ ⚠ ⚡
  ...[0x2600, 0x2601, 0x2605, 0x2606, 0x260e, 0x2610, 0x2611, 0x2612, 0x2620, 0x2622, 0x2639, 0x263a, 0x263b],
  ...[0x2640, 0x2642, 0x267b, 0x2690, 0x2691, 0x2699, 0x26a0, 0x26a1],
  [0x2660, 0x2667],
  [0x2669, 0x266f],
  // dingbats: ✓ ✔ ✕ ✖ ✗ ✘ ✚ ✦ ✧ ✱ ✳ ✴ ✶ ❄ ❖ ❤ ❮ ❯ ❰ ❱ ➔ ➘–➤
  [0x2713, 0x2718],
  ...[0x271a, 0x2726, 0x2727, 0x2731, 0x2733, 0x2734, 0x2736, 0x2744, 0x2756, 0x2764, 0x2794],
  [0x276e, 0x2771],
  [0x2798, 0x27a4],
  [0x2b05, 0x2b07], // ⬅ ⬆ ⬇
  0xfffd, // �
];
/** Bold glyphs for letters and punctuation; symbols and drawn glyphs use the regular ones. */
const BOLD_UP_TO = 0x203c;

interface Metrics {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  advance: number;
  xHeight: number;
}

function tables(font: Uint8Array): Map<string, number> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const out = new Map<string, number>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const record = 12 + i * 16;
    out.set(String.fromCharCode(...font.subarray(record, record + 4)), view.getUint32(record + 8));
  }
  return out;
}

function metrics(font: Uint8Array): Metrics {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const at = tables(font);
  const hhea = at.get("hhea")!;
  return {
    unitsPerEm: view.getUint16(at.get("head")! + 18),
    ascender: view.getInt16(hhea + 4),
    descender: -view.getInt16(hhea + 6),
    advance: view.getUint16(hhea + 10), // advanceWidthMax: every glyph of a monospace font has it
    xHeight: view.getInt16(at.get("OS/2")! + 86),
  };
}

/** The code points a font maps (cmap formats 4 and 12). */
function cmap(font: Uint8Array): Set<number> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const base = tables(font).get("cmap")!;
  const out = new Set<number>();
  for (let i = 0; i < view.getUint16(base + 2); i++) {
    const sub = base + view.getUint32(base + 4 + i * 8 + 4);
    if (view.getUint16(sub) === 12) {
      for (let g = 0; g < view.getUint32(sub + 12); g++) {
        const [start, end] = [view.getUint32(sub + 16 + g * 12), view.getUint32(sub + 20 + g * 12)];
        for (let cp = start; cp <= end; cp++) out.add(cp);
      }
    } else if (view.getUint16(sub) === 4) {
      const segments = view.getUint16(sub + 6) / 2;
      for (let s = 0; s < segments; s++) {
        const end = view.getUint16(sub + 14 + s * 2);
        const start = view.getUint16(sub + 16 + segments * 2 + s * 2);
        for (let cp = start; cp <= end && cp !== 0xffff; cp++) out.add(cp);
      }
    }
  }
  return out;
}

/** Renders `codePoints` in one SVG sheet with resvg (white on black) and cuts out one cell per glyph. */
function fontGlyphs(codePoints: number[], bold: boolean, width: number, height: number, m: Metrics): Coverage[] {
  const size = height * m.unitsPerEm / (m.ascender + m.descender);
  const squeeze = width / (m.advance * size / m.unitsPerEm); // 8 / 8.27 at 1×: fit the advance to the cell
  const baseline = Math.round(height * m.ascender / (m.ascender + m.descender));
  const gutter = width; // room for overhangs, which are cut off as a terminal clips them
  const [slotW, slotH, columns] = [width + 2 * gutter, height + 2 * gutter, 32];
  const rows = Math.ceil(codePoints.length / columns);
  // One text element per sheet row, each character placed by its own x: resvg lays out text per element, slowly.
  const texts = Array.from({ length: rows }, (_, row) => {
    const line = codePoints.slice(row * columns, (row + 1) * columns);
    const xs = line.map((_, i) => ((i * slotW + gutter) / squeeze).toFixed(3)).join(" ");
    const chars = line.map((cp) => `&#x${cp.toString(16)};`).join("");
    return `<text x="${xs}" y="${row * slotH + gutter + baseline}">${chars}</text>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${columns * slotW}" height="${rows * slotH}">` +
    `<g transform="scale(${squeeze.toFixed(5)} 1)" font-family="DejaVu Sans Mono" font-size="${size.toFixed(4)}" ` +
    `font-weight="${bold ? "bold" : "normal"}" fill="#fff" xml:space="preserve">${texts.join("")}</g></svg>`;
  const image = new Resvg(svg, {
    background: "#000",
    font: { loadSystemFonts: false, fontBuffers: [REGULAR, BOLD], defaultFontFamily: "DejaVu Sans Mono" },
  }).render();
  const pixels = image.pixels; // a copy out of WebAssembly memory on every read of the property
  return codePoints.map((_, i) => {
    const [x0, y0] = [(i % columns) * slotW + gutter, Math.floor(i / columns) * slotH + gutter];
    const data = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) data[y * width + x] = pixels[((y0 + y) * image.width + x0 + x) * 4] / 255;
    }
    return { width, height, data };
  });
}

/** Code points as hex ranges: "20-7e,a0-ff". */
function ranges(codePoints: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < codePoints.length;) {
    let j = i;
    while (j + 1 < codePoints.length && codePoints[j + 1] === codePoints[j] + 1) j++;
    out.push(i === j ? codePoints[i].toString(16) : `${codePoints[i].toString(16)}-${codePoints[j].toString(16)}`);
    i = j + 1;
  }
  return out.join(",");
}

/** 4-bit coverage, two pixels per byte (high nibble first), deflated, as base64 in lines of 116 characters. */
function pack(glyphs: Coverage[]): { text: string; raw: number; deflated: number } {
  const levels = glyphs.flatMap((g) => [...g.data].map((c) => Math.round(Math.min(1, c) * 15)));
  const bytes = new Uint8Array(Math.ceil(levels.length / 2));
  for (let i = 0; i < levels.length; i++) bytes[i >> 1] |= i % 2 === 0 ? levels[i] << 4 : levels[i];
  const deflated = deflateSync(bytes, { level: 9 });
  const text = deflated.toString("base64").match(/.{1,116}/g)!.join("\n");
  return { text, raw: bytes.length, deflated: deflated.length };
}

await initWasm(Deno.readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));
const m = metrics(REGULAR);
const [regularMap, boldMap] = [cmap(REGULAR), cmap(BOLD)];
const drawn = drawnCodePoints();
const wanted = WANTED.flatMap((r) =>
  typeof r === "number" ? [r] : Array.from({ length: r[1] - r[0] + 1 }, (_, i) => r[0] + i)
);
const fromFont = wanted.filter((cp) => regularMap.has(cp) && !drawn.includes(cp));
const regularCps = [...fromFont, ...drawn].sort((a, b) => a - b);
const boldCps = fromFont.filter((cp) => cp <= BOLD_UP_TO && boldMap.has(cp));

const atlases: string[] = [];
for (const { scale, width, height } of SCALES) {
  const t = scale; // a light line is one pixel at 1×
  const fontRegular = new Map(fontGlyphs(fromFont, false, width, height, m).map((g, i) => [fromFont[i], g]));
  const regular = regularCps.map((cp) => fontRegular.get(cp) ?? drawGlyph(cp, width, height, t));
  const bold = fontGlyphs(boldCps, true, width, height, m);
  const boxes = (["cell", "left", "right"] as const).map((part) => replacementBox(width, height, part, t));
  const packed = pack([...boxes, ...regular, ...bold]);
  const baseline = Math.round(height * m.ascender / (m.ascender + m.descender));
  const xHeight = height * m.xHeight / (m.ascender + m.descender);
  console.error(
    `${scale}×: ${regular.length} regular + ${bold.length} bold glyphs of ${width}×${height}, ` +
      `${packed.raw} bytes packed, ${packed.deflated} deflated, ${packed.text.length} base64`,
  );
  atlases.push(
    `  {\n    cellWidth: ${width},\n    cellHeight: ${height},\n    line: ${t},\n` +
      `    underline: ${baseline + t},\n    strike: ${Math.round(baseline - xHeight / 2 - t / 2)},\n` +
      `    regular: "${ranges(regularCps)}",\n    bold: "${ranges(boldCps)}",\n    data: \`\n${packed.text}\n\`,\n  }`,
  );
  if (values.preview && scale === 1) await preview(values.preview, [...boxes, ...regular, ...bold], width, height);
}

const license = new TextDecoder().decode(Deno.readFileSync(require.resolve("dejavu-fonts-ttf/LICENSE")))
  .split("\nTeX Gyre DJV Math")[0].trim().replaceAll("*/", "* /");
await Deno.writeTextFile(
  OUT,
  `/*! Glyph bitmaps rendered from the DejaVu Sans Mono fonts (dejavu-fonts-ttf 2.37.3), whose licence follows.\n\n` +
    `${license}\n*/\n` +
    `// Generated by scripts/gen_glyphs.ts; do not edit. Layout and use: src/engine/screen/README.md.\n\n` +
    `/** Glyphs at 1× (8×16 cells) and 2× (16×32), each an AtlasData (src/engine/screen/glyphs.ts). */\n` +
    `export const ATLASES = [\n${atlases.join(",\n")},\n];\n`,
);
await new Deno.Command("deno", { args: ["fmt", "--quiet", OUT] }).output();
console.error(`wrote ${OUT}`);

/** Every glyph of the 1× atlas on one sheet, white on black, to look at. */
async function preview(path: string, glyphs: Coverage[], width: number, height: number) {
  const columns = 64;
  const [w, h] = [columns * (width + 1), Math.ceil(glyphs.length / columns) * (height + 1)];
  const pixels = new Uint8Array(w * h).fill(40);
  glyphs.forEach((g, i) => {
    const [x0, y0] = [(i % columns) * (width + 1), Math.floor(i / columns) * (height + 1)];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) pixels[(y0 + y) * w + x0 + x] = Math.round(g.data[y * width + x] * 255);
    }
  });
  await Deno.writeFile(path, encode({ width: w, height: h, data: pixels, channels: 1, depth: 8 }));
}
