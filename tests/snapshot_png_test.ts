import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createRequire } from "node:module";
import { decode } from "fast-png";
import { PngRenderer, type Theme, themeColor, THEMES } from "../src/engine/screen/mod.ts";
import { colorOf, THEME as SNAPSHOT_THEME } from "../src/engine/screen/snapshot_palette.ts";
import { cleanEnv, startPermissions, TestServer, until } from "./helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PROBE = `${ROOT}tests/helpers/png_probe.ts`;
/** A file the renderer needs, in Deno's npm cache: the sandboxed server has no read access there. */
const RESVG_WASM = createRequire(import.meta.url).resolve("@resvg/resvg-wasm/index_bg.wasm");

type Rgb = [number, number, number];
const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/** Checks the PNG signature and reads IHDR's size, then decodes pixels with an independent decoder. */
function readPng(png: Uint8Array) {
  assertEquals([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const header = new DataView(png.buffer, png.byteOffset + 8, 25);
  assertEquals(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
  const size = { width: header.getUint32(8), height: header.getUint32(12) };
  const image = decode(png);
  assertEquals({ width: image.width, height: image.height }, size);
  const channels = image.channels;
  const at = (x: number, y: number): Rgb => {
    const i = (Math.floor(y) * image.width + Math.floor(x)) * channels;
    return [image.data[i], image.data[i + 1], image.data[i + 2]];
  };
  return { ...size, at };
}

const CELL_W = 8.4; // the grid of toSvg: 8 px padding, 8.4 × 17 px cells, 14 px DejaVu Sans Mono
const CELL_H = 17;
const PAD = 8;
/** Centre of a cell: inside a full block glyph, away from antialiased edges. */
const cellCentre = (col: number, row: number) => [PAD + (col + 0.5) * CELL_W, PAD + (row + 0.5) * CELL_H] as const;

/** A 20×2 screen drawn the way toSvg draws one: "██ RED" in palette red on the theme's default background. */
function redCellsSvg(theme: Theme): string {
  const [w, h] = [Math.ceil(20 * CELL_W + 2 * PAD), Math.ceil(2 * CELL_H + 2 * PAD)];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="${theme.background}"/>`,
    `<g font-family="'DejaVu Sans Mono', monospace" font-size="14" xml:space="preserve">`,
    `<text x="${PAD}" y="${PAD + 13}" fill="${themeColor(theme, 1, false)}" textLength="${6 * CELL_W}" ` +
    `lengthAdjust="spacing">██ RED</text>`,
    `<text x="${PAD}" y="${PAD + CELL_H + 13}" fill="${theme.foreground}" font-weight="bold">bold</text>`,
    "</g>",
    "</svg>",
  ].join("\n");
}

function assertRedCells(png: Uint8Array, theme: Theme) {
  const image = readPng(png);
  assertEquals({ width: image.width, height: image.height }, { width: 184, height: 50 });
  assertEquals(image.at(1, 1), rgbOf(theme.background));
  assertEquals(image.at(image.width - 2, image.height - 2), rgbOf(theme.background));
  assertEquals(image.at(...cellCentre(0, 0)), rgbOf(themeColor(theme, 1, false)));
  assertEquals(image.at(...cellCentre(1, 0)), rgbOf(themeColor(theme, 1, false)));
  // The bold word on the second row is drawn in the theme's foreground: some pixels reach it.
  const fg = rgbOf(theme.foreground);
  let inked = 0;
  for (let y = PAD + CELL_H; y < PAD + 2 * CELL_H; y++) {
    for (let x = PAD; x < PAD + 4 * CELL_W; x++) if (image.at(x, y).every((c, i) => c === fg[i])) inked++;
  }
  assert(inked > 30, `foreground pixels of "bold": ${inked}`);
}

Deno.test("PngRenderer turns a real pane's SVG into a PNG: signature, size, red glyphs, dark background", async () => {
  await using server = await TestServer.start();
  const pane = await server.call<{ pane_id: string }>("create_pane", {
    command: "printf '\\033[31m████ RED ALERT\\033[0m plain\\nnext> '; sleep 600",
  });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id }),
    (c) => c.text.includes("next>"),
  );
  const svg = (await server.call<{ content: string }>("snapshot_pane", { pane_id: pane.pane_id, format: "svg" }))
    .content;
  const image = readPng(await new PngRenderer().render(svg));
  // A 200×50 pane: 200 × 8.4 + 16 by 50 × 17 + 16 pixels, as the SVG says.
  assertEquals({ width: image.width, height: image.height }, { width: 1696, height: 866 });
  const background = rgbOf(THEMES.dark.background);
  assertEquals(image.at(2, 2), background);
  assertEquals(image.at(image.width - 3, image.height - 3), background);
  for (const col of [0, 1, 2, 3]) assertEquals(image.at(...cellCentre(col, 0)), rgbOf(THEMES.dark.ansi[1]));
  let red = 0; // "RED ALERT" in columns 5-13
  for (let y = PAD; y < PAD + CELL_H; y++) {
    for (let x = PAD + 5 * CELL_W; x < PAD + 14 * CELL_W; x++) {
      const [r, g, b] = image.at(x, y);
      if (r > 150 && g < 60 && b < 60) red++;
    }
  }
  assert(red > 40, `red glyph pixels in "RED ALERT": ${red}`);
  // "plain" (columns 15-19) is in the default foreground: light pixels, none of them red.
  let light = 0;
  for (let y = PAD; y < PAD + CELL_H; y++) {
    for (let x = PAD + 15 * CELL_W; x < PAD + 20 * CELL_W; x++) if (image.at(x, y).every((c) => c > 150)) light++;
  }
  assert(light > 20, `foreground pixels in "plain": ${light}`);
});

Deno.test("PngRenderer draws either theme: its background, palette red and bold text; renderers share one resvg", async () => {
  const renderer = new PngRenderer();
  assertRedCells(await renderer.render(redCellsSvg(THEMES.dark)), THEMES.dark);
  assertRedCells(await renderer.render(redCellsSvg(THEMES.light)), THEMES.light);
  // A second renderer in the same process finds resvg already instantiated and works too.
  assertRedCells(await new PngRenderer().render(redCellsSvg(THEMES.light)), THEMES.light);
  await assertRejects(() => renderer.render("<svg"), "malformed SVG is an error");
  assertRedCells(await renderer.render(redCellsSvg(THEMES.dark)), THEMES.dark);
});

async function assertRejects(fn: () => Promise<unknown>, message: string) {
  let failed = false;
  await fn().catch(() => (failed = true));
  assert(failed, message);
}

Deno.test("themes: dark is snapshot_pane's palette, light keeps every colour readable on white", () => {
  const dark = THEMES.dark;
  assertEquals(
    { background: dark.background, foreground: dark.foreground, cursor: dark.cursor },
    { ...SNAPSHOT_THEME },
  );
  for (let value = 0; value < 256; value++) assertEquals(themeColor(dark, value, false), colorOf(value, false));
  assertEquals(themeColor(THEMES.light, 0x0ac81e, true), "#0ac81e");
  assertEquals(themeColor(THEMES.light, 208, false), "#ff8700");

  const light = THEMES.light;
  assertEquals(light.ansi.length, 16);
  assert(contrast(light.foreground, light.background) >= 7);
  for (const i of [1, 2, 3, 4, 5, 6]) assert(contrast(light.ansi[i], light.background) >= 4.5, `colour ${i}`);
  for (const i of [8, 9, 10, 11, 12, 13, 14]) assert(contrast(light.ansi[i], light.background) >= 4, `colour ${i}`);
  // "White" stays light: black text on a white (7 or 15) bar, as reverse video draws it, still reads.
  for (const i of [7, 15]) assert(contrast(light.ansi[0], light.ansi[i]) >= 4.5, `black on colour ${i}`);
});

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = rgbOf(hex).map((c) => c / 255).map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Runs `script` under exactly the start task's permission flags with `svg` on stdin; returns the probe's report. */
async function runSandboxed(script: string, svg: string, noConfig: boolean) {
  const env = cleanEnv();
  const child = new Deno.Command("deno", {
    args: ["run", ...(noConfig ? ["--no-config"] : []), ...startPermissions(env), script, RESVG_WASM],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await ReadableStream.from([new TextEncoder().encode(svg)]).pipeTo(child.stdin);
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as { png: string; read: string };
  return { png: Uint8Array.fromBase64(report.png), read: report.read };
}

Deno.test("PngRenderer loads under the start task's permissions, with no read access to the npm cache", async () => {
  const { png, read } = await runSandboxed(PROBE, redCellsSvg(THEMES.light), false);
  assertEquals(read, "NotCapable"); // the wasm and fonts came through the module graph, not by file reads
  assertRedCells(png, THEMES.light);
});

Deno.test("a deno bundle that uses PngRenderer renders with --no-config under the start task's permissions", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twpng" });
  try {
    const bundle = `${dir}/probe.js`;
    const built = await new Deno.Command("deno", {
      args: ["bundle", "--quiet", "--platform", "deno", "-o", bundle, PROBE],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(built.code, 0, new TextDecoder().decode(built.stderr));
    const { png, read } = await runSandboxed(bundle, redCellsSvg(THEMES.dark), true);
    assertEquals(read, "NotCapable");
    assertRedCells(png, THEMES.dark);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
