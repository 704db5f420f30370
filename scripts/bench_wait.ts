/**
 * Wait benchmarks: detection latency (owned pane, user pane, 50 ms capture-pane polling), the
 * cost of being watched for a program writing bulk output, and server memory while 20 panes
 * stream. Run: deno run -A scripts/bench_wait.ts [--quick]
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { PLAIN_BASH } from "../tests/helpers/shell_pane.ts";

const quick = Deno.args.includes("--quick");
const ROUNDS = quick ? 10 : 40;
const BULK_BYTES = quick ? 10_000_000 : 50_000_000;
const MEMORY_SECONDS = quick ? 10 : 60;

const wallMs = () => performance.timeOrigin + performance.now();
const stats = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95), n: s.length };
};
const fmt = (x: number) => x.toFixed(2);

await using server = await TestServer.start();
await server.call("list_panes");
const owned = (await server.call<{ pane_id: string }>("create_pane", { command: PLAIN_BASH })).pane_id;
const user =
  (await server.tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-P", "-F", "#{pane_id}", PLAIN_BASH))
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
for (let i = 0; i < ROUNDS; i++) {
  lat.owned.push(await latencyWait(owned, i));
  lat.user.push(await latencyWait(user, i));
  lat.poll.push(await latencyPoll(owned, i));
}
console.log("## Detection latency (marker written -> result at the client), ms");
for (const [name, xs] of Object.entries(lat)) {
  const s = stats(xs);
  console.log(`${name.padEnd(28)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  (n=${s.n})`);
}

async function bulk(pane: string, watch: boolean): Promise<number> {
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
      return Number(m[1]);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
const plain = (await server.tmux("new-window", "-d", "-t", "bench:", "-P", "-F", "#{pane_id}", PLAIN_BASH)).stdout
  .trim();
await new Promise((r) => setTimeout(r, 300));
const cost: Record<string, number[]> = {
  "no watcher (plain pane)": [],
  "owned pane, not watched": [],
  "owned pane, watched": [],
  "user pane, watched": [],
};
for (let i = 0; i < 2; i++) {
  cost["no watcher (plain pane)"].push(await bulk(plain, false));
  cost["owned pane, not watched"].push(await bulk(owned, false));
  cost["owned pane, watched"].push(await bulk(owned, true));
  cost["user pane, watched"].push(await bulk(user, true));
}
console.log(`\n## Writer cost: yes | head -c ${BULK_BYTES} in a pane, ms (2 runs each)`);
const baseline = stats(cost["no watcher (plain pane)"]).median;
for (const [name, xs] of Object.entries(cost)) {
  const m = stats(xs).median;
  console.log(
    `${name.padEnd(28)} median ${m} ms  ${(BULK_BYTES / 1e6 / (m / 1000)).toFixed(1)} MB/s  x${fmt(m / baseline)}`,
  );
}

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))![1]) / 1024;
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
  await new Promise((r) => setTimeout(r, 5000));
}
await Promise.all(watches);
samples.push(rss());
console.log(`\n## Server RSS while 20 panes stream for ${MEMORY_SECONDS} s, MB (every 5 s)`);
console.log(samples.map(fmt).join(" "));
console.log(`first ${fmt(samples[0])}  max ${fmt(Math.max(...samples))}  last ${fmt(samples.at(-1)!)}`);
