/**
 * Benchmarks for PNG snapshots (figures recorded in docs/snapshots.md):
 *   1. cold start to the initialize reply, from source and as a bundle, without and with a PngRenderer wired in
 *      (a scratch copy of main.ts under .bench/ that constructs one), runs interleaved
 *   2. the first render of a 200×50 screen (module import, resvg instantiation, render) and later renders, PNG sizes
 *   3. the rejected alternative: a generated TypeScript module holding the wasm and fonts as base64
 * Run: deno run -A scripts/bench_png.ts [--runs 15] [--renders 20] [--only start|render|base64]
 */
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { cleanEnv, startPermissions } from "../tests/helpers/harness.ts";
import type { Screen } from "../src/engine/screen/snapshot.ts";
import { ScreenRenderer, toSvg } from "../src/engine/screen/snapshot_render.ts";
const screenRuns = (screen: Screen) => new ScreenRenderer().runs(screen);

const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string" }, renders: { type: "string" }, only: { type: "string" } },
});
const RUNS = Number(values.runs ?? 15);
const RENDERS = Number(values.renders ?? 20);
const ROOT = new URL("../", import.meta.url).pathname;
const SCRATCH = `${ROOT}.bench/png`;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms (n=${samples.length})`;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

async function run(args: string[], options: Deno.CommandOptions = {}): Promise<string> {
  const out = await new Deno.Command("deno", { args, cwd: ROOT, stdout: "piped", stderr: "piped", ...options })
    .output();
  if (out.code !== 0) throw new Error(`deno ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** Process spawn to the first line on stdout (the initialize reply) under the start task's permissions. */
async function startOnce(entry: string, noConfig: boolean): Promise<number> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twb" });
  const env = cleanEnv();
  const started = performance.now();
  const child = new Deno.Command("deno", {
    args: [
      "run",
      ...(noConfig ? ["--no-config"] : []),
      ...startPermissions(env, [dir]),
      entry,
      "--socket-path",
      `${dir}/s`,
      "--state-dir",
      `${dir}/state`,
    ],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    }) + "\n",
  ));
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
  await Deno.mkdir(SCRATCH, { recursive: true });
  // main.ts as it will be once snapshot_pane holds a renderer: the PNG module is in the graph, never called.
  const main = await Deno.readTextFile(`${ROOT}main.ts`);
  await Deno.writeTextFile(
    `${SCRATCH}/main_png.ts`,
    `import { PngRenderer } from "../../src/engine/screen/mod.ts";\nexport const png = new PngRenderer();\n` +
      main.replaceAll('from "./src/', 'from "../../src/'),
  );
  const variants: Record<string, { entry: string; noConfig: boolean }> = {
    "source, main.ts": { entry: `${ROOT}main.ts`, noConfig: false },
    "source, with PngRenderer": { entry: `${SCRATCH}/main_png.ts`, noConfig: false },
  };
  for (const [name, entry] of [["main", `${ROOT}main.ts`], ["main_png", `${SCRATCH}/main_png.ts`]]) {
    const out = `${SCRATCH}/${name}.js`;
    await run(["bundle", "--quiet", "--platform", "deno", "-o", out, entry]);
    const size = (await Deno.stat(out)).size;
    variants[`bundle, ${name === "main" ? "main.ts" : "with PngRenderer"} (${kib(size)})`] = {
      entry: out,
      noConfig: true,
    };
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const { entry, noConfig } of Object.values(variants)) await startOnce(entry, noConfig); // warm caches
  for (let i = 0; i < RUNS; i++) {
    for (const [name, { entry, noConfig }] of Object.entries(variants)) {
      samples[name].push(await startOnce(entry, noConfig));
    }
  }
  for (const [name, s] of Object.entries(samples)) console.log(`cold start to initialize reply, ${name}: ${stats(s)}`);
}

/** A busy 200×50 screen: every row full of coloured words (build output, `ls --color`), bold and reverse runs. */
function busyScreen(): Screen {
  // [text, SGR parameters]: green, bold red, plain, blue, 256-colour, reverse, truecolor, box drawing.
  const words: [string, string][] = [
    ["PASS", "32"],
    ["FAIL", "1;31"],
    ["src/engine/snapshot.ts", "0"],
    ["dir/", "34"],
    ["warn", "38;5;208"],
    [" 42 ", "7"],
    ["ok", "0"],
    ["true", "38;2;10;200;30"],
    ["│", "0"],
    ["──", "0"],
  ];
  const rows: string[] = [];
  for (let y = 0; y < 50; y++) {
    let row = "";
    let width = 0;
    for (let i = y; width + words[i % words.length][0].length + 1 <= 200; i++) { // a full row, never wrapped
      const [text, sgr] = words[i % words.length];
      row += `\x1b[${sgr}m${text}\x1b[0m `;
      width += text.length + 1;
    }
    rows.push(row);
  }
  return {
    state: {
      cursor: { x: 10, y: 49, visible: true },
      mode: null,
      scrollPosition: 0,
      historySize: 0,
      width: 200,
      height: 50,
      alternateScreen: false,
    },
    rows,
  };
}

async function benchRender(): Promise<void> {
  const screen = busyScreen();
  const svg = toSvg(screen, await screenRuns(screen));
  const sparse: Screen = { ...screen, rows: ["$ make test", "\x1b[32mok\x1b[0m 12 tests", "$ "] };
  const sparseSvg = toSvg(sparse, await screenRuns(sparse));
  const rssBefore = Deno.memoryUsage().rss;
  let t = performance.now();
  const engine = await import("../src/engine/screen/png_engine.ts");
  const imported = performance.now() - t;
  t = performance.now();
  const rasterise = await engine.loadRasteriser();
  const instantiated = performance.now() - t;
  t = performance.now();
  const png = rasterise(svg);
  const first = performance.now() - t;
  console.log(
    `first PNG: import ${imported.toFixed(1)} ms, instantiate ${instantiated.toFixed(1)} ms, ` +
      `render ${first.toFixed(1)} ms; RSS +${kib(Deno.memoryUsage().rss - rssBefore)}`,
  );
  const samples: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    t = performance.now();
    rasterise(svg);
    samples.push(performance.now() - t);
  }
  console.log(`render of a busy 200×50 screen (SVG ${kib(svg.length)}): ${stats(samples)}; PNG ${kib(png.length)}`);
  samples.length = 0;
  let sparsePng: Uint8Array = new Uint8Array();
  for (let i = 0; i < RENDERS; i++) {
    t = performance.now();
    sparsePng = rasterise(sparseSvg);
    samples.push(performance.now() - t);
  }
  console.log(`render of a nearly empty 200×50 screen: ${stats(samples)}; PNG ${kib(sparsePng.length)}`);
}

/** The fallback: the same bytes as base64 in a generated TypeScript module (not kept; measured for the record). */
async function benchBase64(): Promise<void> {
  const require = createRequire(import.meta.url);
  const files = {
    wasm: "@resvg/resvg-wasm/index_bg.wasm",
    regular: "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf",
    bold: "dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf",
  };
  await Deno.mkdir(SCRATCH, { recursive: true });
  const module = Object.entries(files).map(([name, path]) =>
    `export const ${name} = Uint8Array.fromBase64("${Deno.readFileSync(require.resolve(path)).toBase64()}");\n`
  ).join("");
  await Deno.writeTextFile(`${SCRATCH}/assets_base64.ts`, module);
  await Deno.writeTextFile(
    `${SCRATCH}/load_base64.ts`,
    `const t = performance.now();\nawait import("./assets_base64.ts");\nconsole.log(performance.now() - t);\n`,
  );
  await run(["run", `${SCRATCH}/load_base64.ts`]); // first run transpiles and caches
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(Number(await run(["run", `${SCRATCH}/load_base64.ts`])));
  console.log(`base64 module: ${kib(module.length)} of source; import and decode ${stats(samples)}`);
}

if (!values.only || values.only === "start") await benchStart();
if (!values.only || values.only === "render") await benchRender();
if (!values.only || values.only === "base64") await benchBase64();
