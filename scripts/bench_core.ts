/**
 * Core benchmarks: MCP round trip of capture_pane and list_panes against the floor of one tmux
 * subprocess per call (measured side by side in this run), and cold start to the initialize and tools/list
 * replies for each profile (core, agent, all), from `deno run main.ts` and from the single-file bundle,
 * interleaved; `--main PATH` adds another checkout's main.ts (e.g. the code before a change) to the
 * same interleaved series.
 * Run: deno run -A scripts/bench_core.ts [calls] [--cold-only] [--no-bundle] [--main PATH]
 *      (COLD_RUNS=N for more cold starts, default 20)
 */
import { cleanEnv, startPermissions, TestServer, tmuxAt } from "../tests/helpers/harness.ts";

const CALLS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 300);
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const OTHER_MAIN = Deno.args.includes("--main") ? Deno.args[Deno.args.indexOf("--main") + 1] : null;
const BUNDLE = "/tmp/tmuxwright-bench-bundle.js";
const FLOOR = new URL("./cold_floor.ts", import.meta.url).pathname;
const FLOOR_BUNDLE = "/tmp/tmuxwright-bench-floor.js";

/** What a cold start runs: `deno run` of a main.ts, or the bundle (no config, no lock). */
interface Entry {
  label: string;
  script: string;
  flags: string[];
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function roundTrips(): Promise<void> {
  await using s = await TestServer.start();
  const pane = await s.call<{ pane_id: string }>("create_pane", { command: "seq 1 100; exec cat" });
  for (let i = 0; i < 5; i++) await s.call("capture_pane", { pane_id: pane.pane_id }); // warm up
  const capture: number[] = [], list: number[] = [], floor: number[] = [];
  // Interleaved so machine noise hits every method alike.
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await s.client.callTool({ name: "capture_pane", arguments: { pane_id: pane.pane_id, lines: 100 } });
    capture.push(performance.now() - t);
    t = performance.now();
    await s.client.callTool({ name: "list_panes", arguments: {} });
    list.push(performance.now() - t);
    t = performance.now();
    await tmuxAt(s.socket, "display-message", "-p", "-t", pane.pane_id, "#{pane_id}");
    floor.push(performance.now() - t);
  }
  const c = stats(capture), l = stats(list), f = stats(floor);
  console.log(`round trip over MCP stdio, ${CALLS} calls each (interleaved):`);
  console.log(`  capture_pane 100 lines   median ${fmt(c.median)}  p95 ${fmt(c.p95)}`);
  console.log(`  list_panes               median ${fmt(l.median)}  p95 ${fmt(l.p95)}`);
  console.log(`  floor: tmux subprocess   median ${fmt(f.median)}  p95 ${fmt(f.p95)}   (one display-message per call)`);
  console.log(
    `  ratio floor/capture_pane ${(f.median / c.median).toFixed(1)}x, floor/list_panes ${
      (f.median / l.median).toFixed(1)
    }x`,
  );
}

/** Reads stdout lines until one answers request `id`; returns the time it arrived. */
async function replyTo(reader: ReadableStreamDefaultReader<Uint8Array>, id: number, buffer: { text: string }) {
  const decoder = new TextDecoder();
  while (!buffer.text.split("\n").some((line) => line.includes(`"id":${id}`))) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server closed stdout");
    buffer.text += decoder.decode(value, { stream: true });
  }
  return performance.now();
}

/**
 * Process start to the initialize reply and to the tools/list reply, with a warm module cache, per
 * entry and profile, interleaved so noise hits all alike.
 */
async function coldStart(runs: number, entries: Entry[]): Promise<void> {
  const message = (id: number, method: string, params: Record<string, unknown> = {}) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";
  const init = message(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  });
  const list = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n" +
    message(2, "tools/list");
  const profiles = ["core", "agent", "all"] as const;
  const keys = entries.flatMap((e) => profiles.map((p) => `${e.label} --tools ${p}`));
  const samples = Object.fromEntries(keys.map((k) => [k, { init: [] as number[], list: [] as number[] }]));
  for (let i = 0; i < runs + 1; i++) {
    for (const entry of entries) {
      for (const profile of entry.label.includes("floor") ? profiles.slice(0, 1) : profiles) {
        const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twb" });
        const started = performance.now();
        const child = new Deno.Command("deno", {
          args: [
            "run",
            ...entry.flags,
            ...startPermissions(cleanEnv(), [dir]),
            entry.script,
            "--socket-path",
            `${dir}/s`,
            "--state-dir",
            `${dir}/state`,
            "--tools",
            profile,
          ],
          env: cleanEnv(),
          stdin: "piped",
          stdout: "piped",
          stderr: "null",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(init));
        const reader = child.stdout.getReader();
        const buffer = { text: "" };
        const initialized = await replyTo(reader, 1, buffer);
        await writer.write(new TextEncoder().encode(list)); // as a client does: list after the initialize reply
        const listed = await replyTo(reader, 2, buffer);
        if (i > 0) { // the first round warms the cache
          samples[`${entry.label} --tools ${profile}`].init.push(initialized - started);
          samples[`${entry.label} --tools ${profile}`].list.push(listed - started);
        }
        await writer.close();
        reader.releaseLock();
        await child.stdout.cancel();
        await child.status;
        await Deno.remove(dir, { recursive: true });
      }
    }
  }
  console.log(`cold start, ${runs} runs each (interleaved):`);
  for (const key of keys.filter((k) => samples[k].init.length > 0)) {
    const init = stats(samples[key].init), list = stats(samples[key].list);
    console.log(
      `  ${key.padEnd(22)} initialize reply median ${fmt(init.median)}  p95 ${fmt(init.p95)};  ` +
        `tools/list reply median ${fmt(list.median)}  p95 ${fmt(list.p95)}`,
    );
  }
}

/** Builds a single-file bundle (as `deno task bundle` does, to a temp path). */
async function buildBundle(entry: string, out: string): Promise<void> {
  const built = await new Deno.Command("deno", {
    args: ["bundle", "--quiet", "--platform", "deno", "-o", out, entry],
    stderr: "piped",
  }).output();
  if (!built.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(built.stderr)}`);
}

if (!Deno.args.includes("--cold-only")) await roundTrips();
const entries: Entry[] = [
  { label: "deno run", script: MAIN, flags: [] },
  // The floor: loading the MCP SDK and zod, then canned replies (what no server change can go under).
  { label: "floor: SDK+zod", script: FLOOR, flags: [] },
];
if (OTHER_MAIN) entries.push({ label: "other main", script: OTHER_MAIN, flags: [] });
if (!Deno.args.includes("--no-bundle")) {
  await buildBundle(MAIN, BUNDLE);
  await buildBundle(FLOOR, FLOOR_BUNDLE);
  entries.push({ label: "bundle", script: BUNDLE, flags: ["--no-config"] });
  entries.push({ label: "floor bundle", script: FLOOR_BUNDLE, flags: ["--no-config"] });
}
await coldStart(Number(Deno.env.get("COLD_RUNS") ?? 20), entries);
