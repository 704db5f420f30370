import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import "dejavu-fonts-ttf/package.json" with { type: "json" };
import { TestServer, until } from "./helpers/harness.ts";
import { snapshotPng } from "./helpers/png_image.ts";

interface Snapshot {
  content: string;
  cursor: { x: number; y: number; visible: boolean };
  mode: string | null;
  size: { width: number; height: number };
  history_size: number;
  scroll_position: number;
}

const RED = "#cc0000"; // palette colour 1 of the rendered theme
const BACKGROUND = [0x1e, 0x1e, 0x1e];

async function colouredPane(server: TestServer): Promise<string> {
  const pane = await server.call<{ pane_id: string }>("create_pane", {
    // From the top-left cell: a command's output otherwise starts a row down (its start-up gate's step).
    command: "printf '\\033[H\\033[31mRED ALERT\\033[0m \\033[1mBOLD\\033[0m \\033[4;38;5;208mwarm\\033[0m " +
      "\\033[38;2;10;200;30mtrue\\033[0m\\nnext> '; sleep 600",
  });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id }),
    (c) => c.text.includes("next>"),
  );
  return pane.pane_id;
}

Deno.test("snapshot_pane text and ansi: screen, cursor, mode, size, history in one call", async () => {
  await using server = await TestServer.start();
  const pane = await colouredPane(server);
  const text = await server.call<Snapshot>("snapshot_pane", { pane_id: pane });
  assertEquals(text.content.split("\n").slice(0, 2), ["RED ALERT BOLD warm true", "next>"]);
  assertEquals(text.cursor, { x: 6, y: 1, visible: true });
  assertEquals(text.mode, null);
  assertEquals(text.size, { width: 200, height: 50 });
  assertEquals(text.history_size, 0);
  const ansi = await server.call<Snapshot>("snapshot_pane", { pane_id: pane, format: "ansi" });
  assert(ansi.content.includes("\x1b[31mRED ALERT"), JSON.stringify(ansi.content.slice(0, 80)));

  await server.tmux("copy-mode", "-t", pane);
  const copy = await server.call<Snapshot>("snapshot_pane", { pane_id: pane });
  assertEquals(copy.mode, "copy-mode");
});

Deno.test("snapshot_pane html and svg show colours, bold and the text; the svg renders readable", async () => {
  await using server = await TestServer.start();
  const pane = await colouredPane(server);
  const html = (await server.call<Snapshot>("snapshot_pane", { pane_id: pane, format: "html" })).content;
  assert(html.includes(`color:${RED}">RED ALERT</span>`), html.slice(0, 400));
  assert(/font-weight:bold">BOLD</.test(html));
  assert(html.includes('color:#ff8700;text-decoration:underline">warm<'), "256-colour 208 and underline");
  assert(html.includes('color:#0ac81e">true<'), "truecolor");
  assert(!/https?:|<link|<script|url\(/.test(html), "self-contained");

  const svg = (await server.call<Snapshot>("snapshot_pane", { pane_id: pane, format: "svg" })).content;
  assert(svg.includes(`fill="${RED}"`) && svg.includes(">RED ALERT</text>"));
  assert(/font-weight="bold"[^>]*>BOLD</.test(svg));
  assert(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(svg), "no network references");

  // Rasterise with a real SVG renderer (resvg, WebAssembly shipped in its npm package) and look at pixels.
  const require = createRequire(import.meta.url);
  await initWasm(Deno.readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));
  const font = Deno.readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf"));
  const bold = Deno.readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf"));
  const image = new Resvg(svg, {
    font: { loadSystemFonts: false, fontBuffers: [font, bold], defaultFontFamily: "DejaVu Sans Mono" },
  }).render();
  const { width, pixels } = image;
  const at = (x: number, y: number) => Array.from(pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 3));
  // "RED ALERT" occupies columns 0-8 of row 0: 8 px padding, 8.4 px cells, 17 px rows.
  let red = 0;
  for (let y = 8; y < 25; y++) {
    for (let x = 8; x < 8 + 9 * 8.4; x++) {
      const [r, g, b] = at(x, y);
      if (r > 150 && g < 60 && b < 60) red++;
    }
  }
  assert(red > 40, `red glyph pixels in the first cells: ${red}`);
  assertEquals(at(2, 2), BACKGROUND);
  assertEquals(at(width - 3, image.height - 3), BACKGROUND);
  // Bold text (columns 10-13) is drawn: light pixels there, none in the gap at column 9.
  let light = 0;
  for (let y = 8; y < 25; y++) for (let x = 8 + 10 * 8.4; x < 8 + 14 * 8.4; x++) if (at(x, y)[0] > 150) light++;
  assert(light > 40, `bold glyph pixels: ${light}`);
});

Deno.test("snapshot_pane theme light draws html and svg on white with the light palette", async () => {
  await using server = await TestServer.start();
  const pane = await colouredPane(server);
  const html =
    (await server.call<Snapshot>("snapshot_pane", { pane_id: pane, format: "html", theme: "light" })).content;
  assert(html.includes("background:#ffffff;color:#1e1e1e"), html.slice(0, 200));
  assert(html.includes('color:#b21818">RED ALERT</span>'), "palette red of the light theme");
  const svg = (await server.call<Snapshot>("snapshot_pane", { pane_id: pane, format: "svg", theme: "light" })).content;
  assert(svg.includes('fill="#ffffff"/>') && svg.includes('fill="#b21818"'), svg.slice(0, 300));
  const refused = await server.callError("snapshot_pane", { pane_id: pane, format: "svg", theme: "solarized" });
  assert(refused.startsWith("INVALID_ARGUMENT: "), refused);
});

Deno.test("snapshot_pane path saves the rendering in the state directory and nowhere else", async () => {
  await using server = await TestServer.start();
  const pane = await colouredPane(server);
  const folder = `${server.dir}/state/snapshots`;
  const html = await server.call<Snapshot & { path: string }>("snapshot_pane", {
    pane_id: pane,
    format: "html",
    path: "screen",
  });
  assertEquals(html.path, `${folder}/screen.html`); // the format's extension is added
  assertEquals(await Deno.readTextFile(html.path), html.content);
  assertEquals((await Deno.stat(html.path)).mode! & 0o777, 0o600);
  const { fields, png } = await snapshotPng(server, { pane_id: pane, path: "screen.png" });
  assertEquals(fields.path, `${folder}/screen.png`);
  assertEquals(await Deno.readFile(`${folder}/screen.png`), png);
  // The absolute path a call returned names the same file: saving again replaces it.
  const again = await server.call<{ path: string }>("snapshot_pane", { pane_id: pane, path: `${folder}/screen.txt` });
  assertEquals(
    await Deno.readTextFile(again.path),
    (await server.call<Snapshot>("snapshot_pane", { pane_id: pane })).content,
  );

  await Deno.symlink(`${server.dir}/linked.svg`, `${folder}/link.svg`);
  const outside = [
    ["../escape.png", "png"],
    [`${server.dir}/escape.png`, "png"],
    ["/tmp/escape.png", "png"],
    ["sub/escape.png", "png"],
    [".hidden.png", "png"],
    ["screen.html", "png"], // another format's extension
    ["link.svg", "svg"], // a symbolic link planted in the folder
  ];
  for (const [path, format] of outside) {
    const error = await server.callError("snapshot_pane", { pane_id: pane, format, path });
    assert(error.startsWith(`INVALID_ARGUMENT: Cannot save snapshot to `), error);
    assert(/snapshots/.test(error), `the error says where snapshots go: ${error}`);
  }
  for (const file of [`${server.dir}/escape.png`, `${server.dir}/state/escape.png`, `${server.dir}/linked.svg`]) {
    assert(!(await Deno.stat(file).then(() => true, () => false)), `${file} must not exist`);
  }
  assertEquals((await Array.fromAsync(Deno.readDir(folder))).map((e) => e.name).sort(), [
    "link.svg",
    "screen.html",
    "screen.png",
    "screen.txt",
  ]);
});
