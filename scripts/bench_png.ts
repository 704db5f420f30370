/**
 * Benchmarks for PNG snapshots (figures in docs/BENCHMARKS.md, section Screens):
 *   render  the time to draw a screen as PNG (terminal emulator, glyphs, deflate) for a busy, a nearly empty and a
 *           24-bit-colour 200×50 screen at 1× and 2×, the longest the event loop went unserved meanwhile, PNG sizes;
 *           side by side with rasterising the same screen's SVG with resvg (the way this replaced); the first
 *           snapshots of a process (emulator and atlas loading); an idle loop for this machine's noise floor
 *   start   cold start to the initialize reply and bundle size: main where this branch last merged it (no PNG), the
 *           resvg renderer (69e55ab), this tree, from source and as bundles, runs interleaved
 *   memory  a real server's RSS before and after its first PNG snapshots
 *   yield   which ways of yielding let a timer and a subprocess's exit through between slices of work
 *   deflate CompressionStream and node:zlib on a busy screen's scanlines: time and longest blocking
 *   slices  where a busy render's time goes (no yielding), and total time and loop gaps for slice lengths 3–8 ms
 * Run: deno run -A scripts/bench_png.ts [--runs 15] [--only render|start|memory|yield|deflate|slices]
 */
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { deflate, deflateSync, inflateSync } from "node:zlib";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { cleanEnv, startPermissions, TestServer, until } from "../tests/helpers/harness.ts";
import { type Screen, ScreenRenderer, THEMES } from "../src/engine/screen/mod.ts";
// The stages themselves, below the room's door: this script times each of them.
import { TerminalEmulator } from "../src/engine/screen/screen_cells.ts";
import { PngRenderer } from "../src/engine/screen/png.ts";
import { Pacer } from "../src/engine/screen/pacer.ts";
import { GlyphAtlas } from "../src/engine/screen/glyphs.ts";
import { ATLASES } from "../src/vendor/glyph_atlas.ts";
import { paint } from "../src/engine/screen/png_paint.ts";
import { Rasteriser } from "../src/engine/screen/png_raster.ts";
import { PngEncoder } from "../src/engine/screen/png_encode.ts";
import {
  busyScreen,
  editorScreen,
  gradientScreen,
  screenBytes,
  sparseScreen,
  stats,
  withLoopMeter,
} from "./bench_png_screens.ts";

const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string" }, only: { type: "string" } } });
const RUNS = Number(values.runs ?? 15);
const ROOT = new URL("../", import.meta.url).pathname;
const SCRATCH = `${ROOT}.bench/png`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (x: number) => x.toFixed(1);

async function benchRender(): Promise<void> {
  const renderer = new ScreenRenderer();
  const first = await withLoopMeter(() => renderer.markup(sparseScreen(), "html"));
  console.log(
    `first snapshot of the process (imports the emulator): ${ms(first.elapsed)} ms, ` +
      `longest loop gap ${ms(first.longestWall)} ms wall / ${ms(first.longestCpu)} ms CPU`,
  );
  for (const scale of [1, 2] as const) {
    const cold = await withLoopMeter(() => renderer.png(sparseScreen(), { scale }));
    console.log(
      `first PNG at ${scale}× (imports and decodes the atlas): ${ms(cold.elapsed)} ms, ` +
        `longest loop gap ${ms(cold.longestWall)} ms wall / ${ms(cold.longestCpu)} ms CPU`,
    );
  }
  const idle = [];
  for (let i = 0; i < RUNS; i++) idle.push(await withLoopMeter(() => new Promise((r) => setTimeout(r, 40))));
  const floor = stats(idle.map((s) => s.longestWall));
  console.log(`idle loop, 40 ms: longest gap median ${ms(floor.median)} ms, max ${ms(floor.max)} ms (machine noise)\n`);

  await initWasm(Deno.readFileSync(createRequire(import.meta.url).resolve("@resvg/resvg-wasm/index_bg.wasm")));
  const font = (name: string) =>
    Deno.readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`));
  const fonts = { loadSystemFonts: false, fontBuffers: [font("DejaVuSansMono.ttf"), font("DejaVuSansMono-Bold.ttf")] };
  const screens: [string, Screen][] = [
    ["busy", busyScreen()],
    ["nearly empty", sparseScreen()],
    ["editor, 24-bit colours", editorScreen()],
    ["24-bit gradient", gradientScreen()],
  ];
  console.log(
    "| screen (200×50) | way | render median (max) | longest loop gap wall median (max) | CPU median (max) | PNG |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [name, screen] of screens) {
    const svg = await renderer.markup(screen, "svg");
    const rows: Record<string, { elapsed: number[]; wall: number[]; cpu: number[]; size: number }> = {};
    const ways: [string, () => Promise<Uint8Array>][] = [
      ["glyph atlas 1×", () => renderer.png(screen)],
      ["glyph atlas 2×", () => renderer.png(screen, { scale: 2 })],
      ["resvg on the SVG", () => Promise.resolve(new Resvg(svg, { font: fonts }).render().asPng())],
    ];
    for (let i = 0; i < RUNS; i++) {
      for (const [way, render] of ways) { // interleaved, so load on the machine hits every way alike
        await new Promise((r) => setTimeout(r, 20));
        const run = await withLoopMeter(render);
        rows[way] ??= { elapsed: [], wall: [], cpu: [], size: run.value.length };
        rows[way].elapsed.push(run.elapsed);
        rows[way].wall.push(run.longestWall);
        rows[way].cpu.push(run.longestCpu);
      }
    }
    for (const [way, r] of Object.entries(rows)) {
      const [e, w, c] = [stats(r.elapsed), stats(r.wall), stats(r.cpu)];
      console.log(
        `| ${name} | ${way} | ${ms(e.median)} (${ms(e.max)}) ms | ${ms(w.median)} (${ms(w.max)}) ms | ` +
          `${ms(c.median)} (${ms(c.max)}) ms | ${kib(r.size)} |`,
      );
    }
  }
}

async function run(args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command("deno", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (out.code !== 0) throw new Error(`deno ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** A revision's files, exported with `git archive` (nothing is checked out). */
async function exportTree(rev: string, dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const archive = new Deno.Command("git", { args: ["archive", rev], cwd: ROOT, stdout: "piped" }).spawn();
  const tar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(tar.stdin);
  if (!(await archive.status).success || !(await tar.status).success) throw new Error(`git archive ${rev} failed`);
}

/** Process spawn to the first line on stdout (the initialize reply) under the start task's permissions. */
async function startOnce(entry: string, cwd: string, noConfig: boolean): Promise<number> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twb" });
  const env = cleanEnv();
  const started = performance.now();
  const child = new Deno.Command("deno", {
    args: [
      "run",
      ...(noConfig ? ["--no-config"] : []),
      ...startPermissions(env, [dir]),
      entry,
      ...["--socket-path", `${dir}/s`, "--state-dir", `${dir}/state`],
    ],
    cwd,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const hello = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } };
  await writer.write(
    new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: hello }) + "\n"),
  );
  const reader = child.stdout.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  await Deno.remove(dir, { recursive: true });
  return elapsed;
}

async function benchStart(): Promise<void> {
  // "Before" is where this branch last took main, so the comparison holds only this branch's changes.
  const git = async (...args: string[]) =>
    new TextDecoder().decode((await new Deno.Command("git", { args, cwd: ROOT }).output()).stdout).trim();
  const base = await git("merge-base", "HEAD", "main");
  await exportTree(base, `${SCRATCH}/main`);
  await exportTree("69e55ab", `${SCRATCH}/resvg`);
  // The resvg renderer was never wired into its main.ts; this entry holds one, as snapshot_pane would have.
  const resvgMain = await Deno.readTextFile(`${SCRATCH}/resvg/main.ts`);
  await Deno.writeTextFile(
    `${SCRATCH}/resvg/main_png.ts`,
    `import { PngRenderer } from "./src/engine/screen/mod.ts";\nexport const png = new PngRenderer();\n${resvgMain}`,
  );
  const trees = {
    [`main ${base.slice(0, 7)} (no PNG)`]: [`${SCRATCH}/main`, "main.ts"],
    "resvg (69e55ab)": [`${SCRATCH}/resvg`, "main_png.ts"],
    "this tree": [ROOT, "main.ts"],
  };
  const variants: Record<string, { entry: string; cwd: string; noConfig: boolean }> = {};
  for (const [name, [dir, entry]] of Object.entries(trees)) {
    variants[`${name}, source`] = { entry: `${dir}/${entry}`, cwd: dir, noConfig: false };
    const bundle = `${SCRATCH}/${name.split(" ")[0]}.js`;
    await run(["bundle", "--quiet", "--platform", "deno", "-o", bundle, entry], dir);
    variants[`${name}, bundle (${kib((await Deno.stat(bundle)).size)})`] = {
      entry: bundle,
      cwd: SCRATCH,
      noConfig: true,
    };
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const v of Object.values(variants)) await startOnce(v.entry, v.cwd, v.noConfig); // warm caches
  for (let i = 0; i < RUNS; i++) {
    for (const [name, v] of Object.entries(variants)) samples[name].push(await startOnce(v.entry, v.cwd, v.noConfig));
  }
  for (const [name, s] of Object.entries(samples)) {
    console.log(`cold start to initialize reply, ${name}: median ${ms(stats(s).median)} ms (n=${s.length})`);
  }
}

async function benchMemory(): Promise<void> {
  await using server = await TestServer.start();
  const file = `${server.dir}/busy.ans`;
  await Deno.writeTextFile(file, screenBytes(busyScreen()));
  const pane = (await server.call<{ pane_id: string }>("create_pane", { command: `cat ${file}; sleep 600` })).pane_id;
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: pane }), (c) => c.text.includes("PASS"));
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))![1]) / 1024;
  const steps: [string, Record<string, unknown>, number][] = [
    ["a text snapshot", { format: "text" }, 1],
    ["the first html snapshot (loads the emulator)", { format: "html" }, 1],
    ["20 more html snapshots", { format: "html" }, 20],
    ["the first PNG (loads the 1× atlas)", { format: "png" }, 1],
    ["20 more PNGs", { format: "png" }, 20],
    ["20 PNGs at 2×", { format: "png", scale: 2 }, 20],
  ];
  let last = rss();
  console.log(
    `server RSS at start: ${last.toFixed(1)} MB (busy 200×50 pane; RSS includes garbage V8 has not collected)`,
  );
  for (const [what, args, times] of steps) {
    for (let i = 0; i < times; i++) await server.result("snapshot_pane", { pane_id: pane, ...args });
    const now = rss();
    console.log(`after ${what}: ${now.toFixed(1)} MB (${now >= last ? "+" : ""}${(now - last).toFixed(1)})`);
    last = now;
  }
}

async function benchYield(): Promise<void> {
  const busy = (n: number) => {
    const end = performance.now() + n;
    while (performance.now() < end);
  };
  const channel = new MessageChannel();
  const ways: [string, () => Promise<unknown>][] = [
    ["setTimeout 0", () => new Promise((r) => setTimeout(r, 0))],
    ["setImmediate", () => new Promise((r) => setImmediate(r))],
    ["MessageChannel", () => new Promise((r) => (channel.port1.onmessage = r, channel.port2.postMessage(0)))],
    ["resolved promise", () => Promise.resolve()],
  ];
  for (const [name, yieldNow] of ways) {
    const started = performance.now();
    let [timerAt, exitAt] = [NaN, NaN];
    setTimeout(() => (timerAt = performance.now() - started), 3);
    const child = new Deno.Command("true").output().then(() => (exitAt = performance.now() - started));
    for (let i = 0; i < 40; i++) {
      busy(1);
      await yieldNow();
    }
    const loop = performance.now() - started;
    await child;
    console.log(
      `${name}: 40 slices of 1 ms in ${ms(loop)} ms; a 3 ms timer ran at ${ms(timerAt)} ms, ` +
        `a subprocess's exit was seen at ${ms(exitAt)} ms${exitAt > loop ? " (after the loop)" : ""}`,
    );
  }
  channel.port1.close();
}

async function benchDeflate(): Promise<void> {
  const png = await new ScreenRenderer().png(busyScreen());
  // The scanlines of the busy screen: inflate the IDAT chunk of the PNG (it follows IHDR and PLTE).
  let at = 8;
  while (new TextDecoder().decode(png.subarray(at + 4, at + 8)) !== "IDAT") {
    at += 12 + new DataView(png.buffer).getUint32(at);
  }
  const raw = new Uint8Array(inflateSync(png.subarray(at + 8, at + 8 + new DataView(png.buffer).getUint32(at))));
  const ways: [string, () => Promise<number>][] = [
    ["CompressionStream, 64 KiB writes", async () => {
      const stream = new CompressionStream("deflate");
      const writer = stream.writable.getWriter();
      const out = new Response(stream.readable).arrayBuffer();
      for (let i = 0; i < raw.length; i += 65536) await writer.write(raw.subarray(i, i + 65536));
      await writer.close();
      return (await out).byteLength;
    }],
    ["node:zlib deflateSync", () => Promise.resolve(deflateSync(raw).length)],
    ["node:zlib deflate (callback)", () => new Promise((r) => deflate(raw, (_, out) => r(out.length)))],
    ["node:zlib deflateSync level 1", () => Promise.resolve(deflateSync(raw, { level: 1 }).length)],
  ];
  const results: Record<string, { elapsed: number[]; cpu: number[]; size: number }> = {};
  for (let i = 0; i < RUNS; i++) {
    for (const [name, work] of ways) {
      const run = await withLoopMeter(work);
      results[name] ??= { elapsed: [], cpu: [], size: run.value };
      results[name].elapsed.push(run.elapsed);
      results[name].cpu.push(run.longestCpu);
    }
  }
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `${name} of ${kib(raw.length)}: ${ms(stats(r.elapsed).median)} ms, longest loop gap (CPU) ` +
        `${ms(stats(r.cpu).median)} ms; ${kib(r.size)}`,
    );
  }
}

async function benchSlices(): Promise<void> {
  const screen = busyScreen();
  const [emulator, png] = [new TerminalEmulator(), new PngRenderer()];
  const cpu: Record<string, number[]> = { emulator: [], paint: [], draw: [], deflate: [] };
  const atlas = await GlyphAtlas.load(ATLASES[0]);
  for (let i = 0; i < RUNS + 3; i++) {
    const pacer = new Pacer(Infinity); // never yields: each stage's own time
    let t = performance.now();
    const grid = await emulator.cells(screen, THEMES.dark, pacer);
    const times = [performance.now() - t];
    t = performance.now();
    const painted = await paint(grid, atlas, screen.state.cursor, pacer);
    times.push(performance.now() - t);
    const raster = new Rasteriser(grid, painted, atlas, 8);
    const encoder = new PngEncoder(raster.width, raster.height, painted.palette && [...painted.palette.keys()]);
    let [draw, deflate] = [0, 0];
    for (let y = 0; y < grid.height; y++) {
      t = performance.now();
      const band = raster.band(y);
      draw += performance.now() - t;
      t = performance.now();
      await encoder.write(band);
      deflate += performance.now() - t;
    }
    t = performance.now();
    await encoder.finish();
    times.push(draw, deflate + performance.now() - t);
    if (i >= 3) Object.values(cpu).forEach((samples, k) => samples.push(times[k])); // after warming up
  }
  console.log(
    `busy 200×50 at 1×, no yielding: ${
      Object.entries(cpu).map(([stage, s]) => `${stage} ${ms(stats(s).median)} ms`).join(", ")
    }`,
  );
  const bySlice: Record<number, { total: number[]; wall: number[]; cpu: number[] }> = {};
  for (let i = 0; i < RUNS + 3; i++) {
    for (const slice of [3, 4, 5, 6, 8]) {
      await new Promise((r) => setTimeout(r, 10));
      const run = await withLoopMeter(async () => {
        const pacer = new Pacer(slice);
        return await png.render(await emulator.cells(screen, THEMES.dark, pacer), screen.state.cursor, 1, pacer);
      });
      if (i < 3) continue;
      bySlice[slice] ??= { total: [], wall: [], cpu: [] };
      bySlice[slice].total.push(run.elapsed);
      bySlice[slice].wall.push(run.longestWall);
      bySlice[slice].cpu.push(run.longestCpu);
    }
  }
  for (const [slice, r] of Object.entries(bySlice)) {
    console.log(
      `slices of ${slice} ms: render ${ms(stats(r.total).median)} ms, longest loop gap ` +
        `${ms(stats(r.wall).median)} ms wall (max ${ms(stats(r.wall).max)}), ${ms(stats(r.cpu).median)} ms CPU`,
    );
  }
}

const sections: Record<string, () => Promise<void>> = {
  render: benchRender,
  start: benchStart,
  memory: benchMemory,
  yield: benchYield,
  deflate: benchDeflate,
  slices: benchSlices,
};
for (const [name, bench] of Object.entries(sections)) {
  if (!values.only || values.only === name) {
    console.log(`\n## ${name}\n`);
    await bench();
  }
}
