/**
 * Wait benchmarks: detection latency (owned pane, user pane, 50 ms capture-pane polling), the
 * cost of being watched for a program writing bulk output (each pane against itself unwatched,
 * and the user pane against a bare control client that only reads its %output: what tmux itself
 * costs), and server memory while 20 panes stream (RSS every 5 s; with --heap the V8 heap split
 * from the inspector, which itself adds a few MB).
 * Run: deno run -A scripts/bench_wait.ts [--quick] [--only latency|cost|memory] [--runs N] [--heap]
 *      [--main PATH]   (every section again with another checkout's main.ts, e.g. the code before a change)
 *      [--flags="F…"]  (every section again with these extra deno flags, e.g. --v8-flags=…)
 */
import { parseArgs } from "node:util";
import { TestServer } from "../tests/helpers/harness.ts";
import { PLAIN_BASH } from "../tests/helpers/shell_pane.ts";
import { V8Inspector } from "../tests/helpers/v8_inspector.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean" },
    only: { type: "string" },
    runs: { type: "string" },
    heap: { type: "boolean" },
    main: { type: "string" },
    flags: { type: "string" },
  },
});
const quick = values.quick ?? false;
const ROUNDS = quick ? 10 : 40;
const BULK_BYTES = quick ? 10_000_000 : 50_000_000;
const BULK_RUNS = Number(values.runs ?? 2);
const MEMORY_SECONDS = quick ? 10 : 60;
const section = (name: string) => values.only === undefined || values.only === name;

const wallMs = () => performance.timeOrigin + performance.now();
const stats = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95), n: s.length };
};
const fmt = (x: number) => x.toFixed(2);

const mains: { label: string; main?: string; denoFlags?: string[] }[] = [{ label: "this checkout" }];
if (values.main) mains.push({ label: values.main, main: values.main });
if (values.flags) mains.push({ label: `this checkout with ${values.flags}`, denoFlags: values.flags.split(" ") });
for (const { label, main, denoFlags } of section("latency") || section("cost") ? mains : []) {
  console.log(`\n# ${label}`);
  await using server = await TestServer.start({ ...(main ? { main } : {}), ...(denoFlags ? { denoFlags } : {}) });
  await latencyAndCost(server);
}

async function latencyAndCost(server: TestServer): Promise<void> {
  await server.call("list_panes");
  const owned = (await server.call<{ pane_id: string }>("create_pane", { command: PLAIN_BASH })).pane_id;
  const user = (await server.tmux(
    "new-session",
    "-d",
    "-s",
    "bench",
    "-x",
    "120",
    "-y",
    "40",
    "-P",
    "-F",
    "#{pane_id}",
    PLAIN_BASH,
  ))
    .stdout.trim();
  const type = async (pane: string, text: string) => {
    await server.tmux("send-keys", "-t", pane, "-l", text);
    await server.tmux("send-keys", "-t", pane, "Enter");
  };
  await new Promise((r) => setTimeout(r, 500)); // let both shells draw their prompt (setup only)

  async function latencyWait(pane: string, i: number): Promise<number> {
    const tag = `M${i}x`;
    await type(pane, `sleep 0.2; echo ${tag}-$(date +%s%N)`);
    const r = await server.call<{ line: string }>("wait_for_text", {
      pane_id: pane,
      pattern: `${tag}-\\d+`,
      regex: true,
      timeout_ms: 10_000,
    });
    const at = wallMs();
    if (!r.line) throw new Error(`${pane} ${tag}: ${JSON.stringify(r)}`);
    return at - Number(r.line.split("-")[1]) / 1e6;
  }

  async function latencyPoll(pane: string, i: number): Promise<number> {
    const tag = `P${i}x`;
    await type(pane, `sleep 0.2; echo ${tag}-$(date +%s%N)`);
    const re = new RegExp(`^${tag}-(\\d+)$`, "m");
    for (;;) {
      const shot = await server.tmux("capture-pane", "-p", "-t", pane);
      const m = re.exec(shot.stdout);
      if (m) return wallMs() - Number(m[1]) / 1e6;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const lat: Record<string, number[]> = { owned: [], user: [], poll: [] };
  for (let i = 0; section("latency") && i < ROUNDS; i++) {
    lat.owned.push(await latencyWait(owned, i));
    lat.user.push(await latencyWait(user, i));
    lat.poll.push(await latencyPoll(owned, i));
  }
  if (section("latency")) console.log("## Detection latency (marker written -> result at the client), ms");
  for (const [name, xs] of Object.entries(section("latency") ? lat : {})) {
    const s = stats(xs);
    console.log(`${name.padEnd(28)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  (n=${s.n})`);
  }

  /** The server's CPU time so far (user + system), ms: what a watch costs, apart from machine noise. */
  const serverCpuMs = () => {
    const fields = Deno.readTextFileSync(`/proc/${server.pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 10 ms ticks
  };
  async function bulk(pane: string, watch: boolean): Promise<number> {
    const cpuBefore = serverCpuMs();
    const tag = `D${Math.random().toString(36).slice(2, 7)}`;
    const waiting = watch
      ? server.call("watch_pane", { pane_id: pane, triggers: [`pattern:${tag}-`], timeout_ms: 120_000 })
      : null;
    if (watch) await new Promise((r) => setTimeout(r, 200)); // the watch is live before the writer starts
    await type(
      pane,
      `s=$(date +%s%N); yes | head -c ${BULK_BYTES}; e=$(date +%s%N); clear; echo ${tag}-$(( (e-s)/1000000 ))`,
    );
    const re = new RegExp(`^${tag}-(\\d+)$`, "m");
    for (;;) {
      const shot = await server.tmux("capture-pane", "-p", "-t", pane);
      const m = re.exec(shot.stdout);
      if (m) {
        await waiting;
        serverCpu.push(serverCpuMs() - cpuBefore);
        return Number(m[1]);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (!section("cost")) return;
  // A bare control client attached to the user pane's session with output on, reading %output to
  // /dev/null: what tmux spends producing %output, with no server at all.
  async function bareClient(): Promise<{ close(): Promise<void> }> {
    const child = new Deno.Command("sh", {
      args: ["-c", `exec tmux -S '${server.socket}' -C attach -t bench >/dev/null`],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await new Promise((r) => setTimeout(r, 300)); // attached (setup only)
    return {
      async close() {
        await writer.close().catch(() => {});
        await child.status;
      },
    };
  }
  let serverCpu: number[] = [];
  const cpu: Record<string, number[]> = {};
  const cost: Record<string, number[]> = {
    "owned pane, not watched": [],
    "owned pane, watched": [],
    "user pane, not watched": [],
    "user pane, watched": [],
    "user pane, bare -C client": [],
  };
  const run = async (name: string, pane: string, watch: boolean) => {
    serverCpu = cpu[name] ??= [];
    cost[name].push(await bulk(pane, watch));
  };
  for (let i = 0; i < BULK_RUNS; i++) { // interleaved: machine load hits every case alike
    await run("owned pane, not watched", owned, false);
    await run("owned pane, watched", owned, true);
    await run("user pane, not watched", user, false);
    await run("user pane, watched", user, true);
    const bare = await bareClient();
    await run("user pane, bare -C client", user, false);
    await bare.close();
  }
  const base = (runs: number[]) => stats(runs).median;
  console.log(`\n## Writer cost: yes | head -c ${BULK_BYTES} in a pane, ms (${BULK_RUNS} runs each, interleaved)`);
  for (const [name, xs] of Object.entries(cost)) {
    const m = stats(xs).median;
    const baseRuns = cost[name.startsWith("owned") ? "owned pane, not watched" : "user pane, not watched"];
    // Each run against the unwatched run of its own round (same moment, same load), then the median.
    const paired = stats(xs.map((x, i) => x / baseRuns[i])).median;
    console.log(
      `${name.padEnd(28)} median ${m} ms  ${(BULK_BYTES / 1e6 / (m / 1000)).toFixed(1)} MB/s  ` +
        `x${fmt(m / base(baseRuns))}  paired x${fmt(paired)}  server CPU ${stats(cpu[name]).median} ms  ` +
        `(runs: ${xs.join(", ")})`,
    );
  }
}

for (const { label, main, denoFlags } of section("memory") ? mains : []) await memory(label, main, denoFlags);

/** Server RSS (and, with --heap, the V8 heap) while 20 owned panes stream under watch_pane. */
async function memory(label: string, main?: string, denoFlags: string[] = []): Promise<void> {
  const port = V8Inspector.freePort();
  await using server = await TestServer.start({
    ...(main ? { main } : {}),
    denoFlags: [...denoFlags, ...(values.heap ? [`--inspect=127.0.0.1:${port}`] : [])],
  });
  const inspector = values.heap ? await V8Inspector.atPort(port) : null;
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))![1]) / 1024;
  const heap = async () => {
    if (!inspector) return "";
    const m = await inspector.memory();
    return `heap ${m.heapUsed}/${m.heapTotal} external ${m.external}`;
  };
  await server.call("list_panes");
  await new Promise((r) => setTimeout(r, 1500));
  console.log(`\n## Server memory, ${label}${inspector ? " (inspector attached)" : ""}`);
  console.log(`idle after start-up and one call: RSS ${fmt(rss())} MB ${await heap()}`);
  const streams: string[] = [];
  for (let i = 0; i < 20; i++) {
    const p = await server.call<{ pane_id: string }>("create_pane", {
      command: "while :; do seq -f 'stream line %g of a pane under watch' 1 200; sleep 0.05; done",
    });
    streams.push(p.pane_id);
  }
  const watches = streams.map((pane_id) =>
    server.call("watch_pane", { pane_id, triggers: ["pattern:NEVER-MATCHES"], timeout_ms: MEMORY_SECONDS * 1000 })
  );
  const samples: number[] = [];
  const t0 = performance.now();
  while (performance.now() - t0 < MEMORY_SECONDS * 1000) {
    samples.push(rss());
    if (inspector) {
      console.log(
        `  ${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s  RSS ${
          fmt(samples.at(-1)!)
        } MB  ${await heap()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
  await Promise.all(watches);
  samples.push(rss());
  console.log(`RSS while 20 panes stream for ${MEMORY_SECONDS} s, MB (every 5 s):`);
  console.log(samples.map(fmt).join(" "));
  console.log(`first ${fmt(samples[0])}  max ${fmt(Math.max(...samples))}  last ${fmt(samples.at(-1)!)}`);
  if (inspector) {
    const spaces = await inspector.evaluate<{ space_name: string; space_used_size: number; space_size: number }[]>(
      "import('node:v8').then((v8) => v8.getHeapSpaceStatistics())",
    );
    const mb = (n: number) => (n / 1e6).toFixed(1);
    console.log(
      "V8 heap spaces at the end, used/size MB: " +
        spaces.filter((s) => s.space_size > 0).map((s) =>
          `${s.space_name} ${mb(s.space_used_size)}/${mb(s.space_size)}`
        )
          .join(", "),
    );
    inspector.close();
  }
}
