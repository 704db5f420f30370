import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { type Theme, THEMES } from "../src/engine/screen/mod.ts";
import { GlyphAtlas, WIDE_LEFT, WIDE_RIGHT } from "../src/engine/screen/glyphs.ts";
import { ATLASES } from "../src/vendor/glyph_atlas.ts";
import { TestServer, until } from "./helpers/harness.ts";
import { type Image, snapshotPng } from "./helpers/png_image.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PAD = 8; // one cell width of background around the cells, at 1×

/**
 * A pane with a known screen: row 0 "RED ALERT ┌─┐ 中 A" (red, box drawing, a wide character, a plain glyph),
 * row 1 "BOLD │x│" (bold green), row 2 the prompt "next> " with the cursor after it at column 6.
 */
async function knownPane(server: TestServer): Promise<string> {
  const pane = await server.call<{ pane_id: string }>("create_pane", {
    // From the top-left cell: a command's output otherwise starts a row down (its start-up gate's step).
    command: "printf '\\033[H\\033[31mRED ALERT\\033[0m ┌─┐ 中 A\\n\\033[1;32mBOLD\\033[0m │x│\\nnext> '; sleep 600",
  });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id }),
    (c) => c.text.includes("next>"),
  );
  return pane.pane_id;
}

/**
 * The background blended toward the foreground by a 4-bit coverage level, channel by channel; with `steps` < 15
 * the level is first rounded to one of steps + 1 evenly spaced levels (fewer blends, to fit an 8-bit palette).
 */
function mix(bg: number, fg: number, level: number, steps = 15): number {
  const rounded = Math.round(level * steps / 15) * 15 / steps;
  return [16, 8, 0].reduce((out, shift) => {
    const b = bg >> shift & 255;
    return out | Math.round(b + ((fg >> shift & 255) - b) * rounded / 15) << shift;
  }, 0);
}

/** Every pixel of cell (col, row) is the atlas glyph's coverage blended from `bg` to `fg`. */
function assertGlyph(
  image: Image,
  atlas: GlyphAtlas,
  [col, row]: number[],
  glyph: number,
  fg: number,
  bg: number,
  steps = 15,
) {
  const { cellWidth: w, cellHeight: h, levels } = atlas;
  const pad = PAD * (w / 8);
  const wrong: string[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const expected = mix(bg, fg, levels[glyph * w * h + y * w + x], steps);
      const actual = image.at(pad + col * w + x, pad + row * h + y);
      if (actual !== expected) wrong.push(`(${x},${y}) ${actual.toString(16)} != ${expected.toString(16)}`);
    }
  }
  assertEquals(wrong, [], `glyph ${glyph} in cell ${col},${row}`);
}

/** What the known pane must look like in `theme`, checked pixel by pixel where it matters. */
async function assertKnownPane(image: Image, theme: Theme, scale: 1 | 2) {
  const atlas = await GlyphAtlas.load(ATLASES[scale - 1]);
  const [w, h] = [8 * scale, 16 * scale];
  assertEquals({ width: image.width, height: image.height }, {
    width: 200 * w + 16 * scale,
    height: 50 * h + 16 * scale,
  });
  for (const [x, y] of [[0, 0], [image.width - 1, image.height - 1], [image.width - 1, 0], [3, image.height / 2]]) {
    assertEquals(image.at(x, y), theme.background, `background at ${x},${y}`);
  }
  const [red, green, bg, fg] = [theme.palette[1], theme.palette[2], theme.background, theme.foreground];
  // "RED ALERT": glyph pixels in exactly the theme's red, nothing else but background blends.
  let redPixels = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < 9 * w; x++) if (image.at(8 * scale + x, 8 * scale + y) === red) redPixels++;
  }
  assert(redPixels > 40 * scale * scale, `pure red pixels in "RED ALERT": ${redPixels}`);
  const glyph = (char: string, bold = false) => atlas.glyph(char.codePointAt(0)!, bold);
  assertGlyph(image, atlas, [4, 0], glyph("A"), red, bg);
  assertGlyph(image, atlas, [17, 0], glyph("A"), fg, bg);
  for (const [col, char] of [[10, "┌"], [11, "─"], [12, "┐"]] as const) {
    assertGlyph(image, atlas, [col, 0], glyph(char), fg, bg);
  }
  assertGlyph(image, atlas, [14, 0], WIDE_LEFT, fg, bg); // 中 has no glyph: a replacement box two cells wide
  assertGlyph(image, atlas, [15, 0], WIDE_RIGHT, fg, bg);
  assertGlyph(image, atlas, [0, 1], glyph("B", true), green, bg);
  assert(glyph("B", true) !== glyph("B"), "bold has its own glyphs");
  assertGlyph(image, atlas, [5, 1], glyph("│"), fg, bg);
  // The cursor: a block in the cursor colour on the blank cell after "next> ".
  assertGlyph(image, atlas, [6, 2], glyph(" "), theme.background, theme.cursor);
  assertEquals(image.at(8 * scale + 6 * w + w / 2, 8 * scale + 2 * h + h / 2), theme.cursor);
}

Deno.test("snapshot_pane png: a real pane drawn from the glyph atlas in either theme, as MCP image content", async () => {
  await using server = await TestServer.start(); // the exact permissions of `deno task start`
  const pane = await knownPane(server);
  const dark = await snapshotPng(server, { pane_id: pane });
  assertEquals(dark.fields.cursor, { x: 6, y: 2, visible: true });
  assert(dark.png.length < 64 * 1024, `PNG of a nearly empty 200×50 screen: ${dark.png.length} bytes`);
  await assertKnownPane(dark.image, THEMES.dark, 1);
  await assertKnownPane((await snapshotPng(server, { pane_id: pane, theme: "light" })).image, THEMES.light, 1);
});

Deno.test("snapshot_pane png scale 2 draws 16×32 cells from the 2× glyphs", async () => {
  await using server = await TestServer.start();
  const pane = await knownPane(server);
  await assertKnownPane((await snapshotPng(server, { pane_id: pane, scale: 2 })).image, THEMES.dark, 2);
  const refused = await server.callError("snapshot_pane", { pane_id: pane, format: "png", scale: 3 });
  assert(refused.startsWith("INVALID_ARGUMENT: "), refused);
});

Deno.test("snapshot_pane png with many colours: fewer blend steps to stay indexed, then exact RGB", async () => {
  await using server = await TestServer.start();
  const atlas = await GlyphAtlas.load(ATLASES[0]);
  const colour = (i: number) => (40 + i % 200) << 16 | (200 - i % 150) << 8 | (90 + i * 7 % 160);
  const sgr = (i: number) => `\\033[38;2;${colour(i) >> 16};${colour(i) >> 8 & 255};${colour(i) & 255}m`;
  // 24 colours of "A" need 360 blends at 15 steps; 300 colours cannot fit 256 palette entries at all.
  for (const [count, steps, colourType] of [[24, 7, 3], [300, 15, 2]]) {
    const text = Array.from({ length: count }, (_, i) => `${sgr(i)}A`).join("");
    const pane =
      (await server.call<{ pane_id: string }>("create_pane", { command: `printf '\\033[H${text}\\033[0m'; sleep 600` }))
        .pane_id; // from the top-left cell (a command's output starts a row down otherwise)
    await until(() => server.call<{ text: string }>("capture_pane", { pane_id: pane }), (c) => c.text.includes("AAAA"));
    const { image } = await snapshotPng(server, { pane_id: pane });
    assertEquals(image.colourType, colourType);
    for (const i of [0, 1, count - 1]) {
      const at = [i % 200, Math.floor(i / 200)];
      assertGlyph(image, atlas, at, atlas.glyph(0x41, false), colour(i), THEMES.dark.background, steps);
    }
  }
});

Deno.test("snapshot_pane png of real programs (less, vim) in a shell with a slow, chatty start-up", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  await Deno.mkdir(`${dir}/home`);
  await Deno.writeTextFile(
    `${dir}/home/.bashrc`,
    "echo 'loading plugins...'; sleep 0.3; echo 'welcome back'; PS1='\\u@\\h:\\w\\$ '\n",
  );
  await Deno.writeTextFile(`${dir}/notes.txt`, "┌──────┐\n│ less │\n└──────┘\n");
  await using server = await TestServer.start({ dir, env: { HOME: `${dir}/home` } });
  const atPrompt = (pane: string) =>
    until(() => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }), (s) => s.at_shell_prompt);
  const shows = (pane: string, text: string) =>
    until(() => server.call<{ content: string }>("snapshot_pane", { pane_id: pane }), (s) => s.content.includes(text));
  const pane = (await server.call<{ pane_id: string }>("create_pane", {})).pane_id;
  await atPrompt(pane);
  const atlas = await GlyphAtlas.load(ATLASES[0]);
  const glyph = (char: string) => atlas.glyph(char.codePointAt(0)!, false);
  const { background, foreground, cursor, palette } = THEMES.dark;

  // less: the file's box, and its prompt "<file> (END)" in reverse video.
  await server.call("send_keys", { pane_id: pane, text: `less ${dir}/notes.txt` });
  const rows = (await shows(pane, "(END)")).content.split("\n");
  const [top, end] = [rows.findIndex((row) => row.startsWith("┌")), rows.findIndex((row) => row.includes("(END)"))];
  let { image } = await snapshotPng(server, { pane_id: pane });
  assertGlyph(image, atlas, [0, top], glyph("┌"), foreground, background);
  assertGlyph(image, atlas, [2, top + 1], glyph("l"), foreground, background);
  assertGlyph(image, atlas, [rows[end].indexOf("(END)"), end], glyph("("), background, foreground);

  // vim -u NONE: its text, the bright blue "~" of lines past the end, the cursor block over the first character.
  await server.call("send_keys", { pane_id: pane, keys: ["q"] });
  await atPrompt(pane);
  await server.call("send_keys", { pane_id: pane, text: `vim -u NONE -N ${dir}/notes.txt` });
  await shows(pane, "~");
  ({ image } = await snapshotPng(server, { pane_id: pane }));
  assertGlyph(image, atlas, [0, 0], glyph("┌"), background, cursor);
  assertGlyph(image, atlas, [2, 1], glyph("l"), foreground, background);
  assertGlyph(image, atlas, [0, 3], glyph("~"), palette[12], background);
});

Deno.test("a --no-config bundle draws PNG snapshots under the start task's permissions", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twpng" });
  try {
    const bundle = `${dir}/tmuxwright.js`;
    const built = await new Deno.Command("deno", {
      args: ["bundle", "--quiet", "--platform", "deno", "-o", bundle, `${ROOT}main.ts`],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(built.code, 0, new TextDecoder().decode(built.stderr));
    await using server = await TestServer.start({ entry: bundle });
    const pane = await knownPane(server);
    await assertKnownPane((await snapshotPng(server, { pane_id: pane, theme: "light" })).image, THEMES.light, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("themes: dark is snapshot_pane's palette, light keeps every colour readable on white", () => {
  const dark = THEMES.dark;
  assertEquals([dark.background, dark.foreground, dark.cursor], [0x1e1e1e, 0xd4d4d4, 0xd4d4d4]);
  assertEquals(dark.palette.slice(0, 16), [
    ...[0x2e3436, 0xcc0000, 0x4e9a06, 0xc4a000, 0x3465a4, 0x75507b, 0x06989a, 0xd3d7cf],
    ...[0x555753, 0xef2929, 0x8ae234, 0xfce94f, 0x729fcf, 0xad7fa8, 0x34e2e2, 0xeeeeec],
  ]);
  // The xterm cube and greys, as snapshot_pane has always drawn them (208 is the orange of `ls` and compilers).
  for (const [index, rgb] of [[16, 0x000000], [21, 0x0000ff], [208, 0xff8700], [231, 0xffffff], [232, 0x080808]]) {
    for (const theme of [THEMES.dark, THEMES.light]) assertEquals(theme.palette[index], rgb);
  }
  assertEquals(THEMES.light.palette[255], 0xeeeeee);

  const light = THEMES.light;
  assert(contrast(light.foreground, light.background) >= 7);
  for (const i of [1, 2, 3, 4, 5, 6]) assert(contrast(light.palette[i], light.background) >= 4.5, `colour ${i}`);
  for (const i of [8, 9, 10, 11, 12, 13, 14]) assert(contrast(light.palette[i], light.background) >= 4, `colour ${i}`);
  // "White" stays light: black text on a white (7 or 15) bar, as reverse video draws it, still reads.
  for (const i of [7, 15]) assert(contrast(light.palette[0], light.palette[i]) >= 4.5, `black on colour ${i}`);
});

/** WCAG 2 contrast ratio of two 0xRRGGBB colours. */
function contrast(a: number, b: number): number {
  const luminance = (rgb: number) => {
    const [r, g, bl] = [rgb >> 16, rgb >> 8 & 255, rgb & 255].map((c) => c / 255).map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
