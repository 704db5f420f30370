/**
 * Core benchmarks: MCP round trip of capture_pane and list_panes against the floor of one tmux
 * subprocess per call (measured side by side in this run), and cold start to the initialize reply.
 * Run: deno run -A scripts/bench_core.ts [calls]
 */
import { cleanEnv, startPermissions, TestServer, tmuxAt } from "../tests/helpers/harness.ts";

const CALLS = Number(Deno.args[0] ?? 300);
const MAIN = new URL("../main.ts", import.meta.url).pathname;

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

/** Process start to the initialize reply on stdout, with a warm module cache. */
async function coldStart(runs: number): Promise<void> {
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  }) + "\n";
  const samples: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twb" });
    const started = performance.now();
    const child = new Deno.Command("deno", {
      args: [
        "run",
        ...startPermissions(cleanEnv(), [dir]),
        MAIN,
        "--socket-path",
        `${dir}/s`,
        "--state-dir",
        `${dir}/state`,
      ],
      env: cleanEnv(),
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(init));
    const reader = child.stdout.getReader();
    await reader.read();
    if (i > 0) samples.push(performance.now() - started); // first run warms the cache
    await writer.close();
    reader.releaseLock();
    await child.stdout.cancel();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
  const s = stats(samples);
  console.log(`cold start to initialize reply, ${runs} runs: median ${fmt(s.median)}  p95 ${fmt(s.p95)}`);
}

await roundTrips();
await coldStart(20);
