/**
 * What holds the HTTP server's memory: SESSIONS MCP sessions (8 at a time), each `create_pane` and
 * CALLS `execute_command`, then DELETE; the server's RSS, V8 heap and external memory before, after
 * and after a forced GC, and the largest kinds of object in a heap snapshot taken at the end.
 * Run: deno run -A scripts/bench_http_memory.ts [sessions, default 85] [calls per session, default 22]
 */
import { Fleet } from "./stress/fleet.ts";
import { Session } from "./stress/session.ts";
import { V8Inspector } from "../tests/helpers/v8_inspector.ts";

const SESSIONS = Number(Deno.args[0] ?? 85);
const CALLS = Number(Deno.args[1] ?? 22);
const WAVE = 8;
const MIX = Deno.env.get("BENCH_MIX");

const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twmem" });
const fleet = new Fleet(dir, null, 60_000);
const port = V8Inspector.freePort();
// BENCH_V8_FLAGS: extra V8 flags for the server (e.g. --optimize-for-size), to compare.
const extra = Deno.env.get("BENCH_V8_FLAGS");
await fleet.startHttp([`--inspect=127.0.0.1:${port}`, ...(extra ? [`--v8-flags=${extra}`] : [])]);
console.log(`server V8 flags: --max-semi-space-size=1${extra ? `,${extra}` : ""}`);
const inspector = await V8Inspector.atPort(port);

async function figures(label: string, gc = false): Promise<void> {
  if (gc) await inspector.send("HeapProfiler.collectGarbage");
  const m = await inspector.memory();
  console.log(`${label.padEnd(34)} RSS ${m.rss} MB, heap ${m.heapUsed}/${m.heapTotal} MB, external ${m.external} MB`);
}

async function oneSession(i: number): Promise<void> {
  const session = await Session.http(fleet);
  await session.call("create_pane", { name: `m${i}` });
  for (let j = 0; j < CALLS; j++) {
    if (MIX === "procs") { // BENCH_MIX=procs: a process with readiness, then its pane killed
      await session.call("start_process", { name: `m${i}-${j}`, command: "echo up; sleep 600", ready: "^up$" });
      await session.call("kill_pane", { pane_id: `m${i}-${j}` });
      continue;
    }
    if (MIX === "waits") { // BENCH_MIX=waits: keys with a shell wait, a text wait and a watch in a pane, then killed
      await session.call("create_pane", { name: `m${i}-${j}` });
      await session.call("send_keys", { pane_id: `m${i}-${j}`, text: "echo a", wait: ["shell"], timeout_ms: 5000 });
      await session.call("send_keys", { pane_id: `m${i}-${j}`, text: "sleep 0.2; echo b" });
      await session.call("wait_for_text", { pane_id: `m${i}-${j}`, pattern: "b", timeout_ms: 5000 });
      await session.call("watch_pane", { pane_id: `m${i}-${j}`, triggers: ["idle:1"], timeout_ms: 3000 });
      await session.call("kill_pane", { pane_id: `m${i}-${j}` });
      continue;
    }
    if (MIX === "misc") { // BENCH_MIX=misc: REPL, paste, incremental reads, logs, search, respawn, split
      const id = `m${i}-${j}`;
      await session.call("create_pane", { name: `${id}r`, command: "python3 -q" });
      await session.call("run_in_repl", { pane_id: `${id}r`, input: "print(6*7)", prompt: "^>>> $", timeout_ms: 5000 });
      await session.call("create_pane", { name: id });
      await session.call("paste_text", { pane_id: id, text: "echo p", enter: true, wait: ["shell"], timeout_ms: 5000 });
      const first = await session.call("capture_since", { pane_id: id });
      await session.call("execute_command", { pane_id: id, command: "echo q" });
      if (first.kind === "ok") await session.call("capture_since", { cursor: first.json.cursor });
      await session.call("read_logs", { pane_id: id, lines: 50 });
      await session.call("search_panes", { pattern: "echo q" });
      await session.call("split_pane", { pane_id: id, direction: "right", name: `${id}s` });
      await session.call("respawn_pane", { pane_id: id });
      for (const p of [`${id}r`, id, `${id}s`]) await session.call("kill_pane", { pane_id: p });
      continue;
    }
    if (MIX === "panes") { // BENCH_MIX=panes: a pane created, used and killed per call instead
      await session.call("create_pane", { name: `m${i}-${j}` });
      await session.call("capture_pane", { pane_id: `m${i}-${j}` });
      await session.call("kill_pane", { pane_id: `m${i}-${j}` });
      continue;
    }
    const answer = await session.call("execute_command", { pane_id: `m${i}`, command: `echo s${i}c${j}` });
    if (answer.kind !== "ok" || answer.json.output !== `s${i}c${j}`) {
      console.log(`  s${i}c${j}: ${JSON.stringify(answer)}`);
    }
  }
  await session.end();
}

await figures("start");
const started = performance.now();
for (let wave = 0; wave < SESSIONS; wave += WAVE) {
  await Promise.all(Array.from({ length: Math.min(WAVE, SESSIONS - wave) }, (_, k) => oneSession(wave + k)));
}
console.log(`${SESSIONS} sessions × (1 + ${CALLS}) calls in ${((performance.now() - started) / 1000).toFixed(0)} s`);
await figures("after, all sessions ended");
await new Promise((r) => setTimeout(r, 5_000));
await figures("5 s later");
await figures("after a forced GC", true);
async function logFds(): Promise<number> {
  let n = 0;
  for await (const entry of Deno.readDir(`/proc/${fleet.httpPid}/fd`)) {
    const target = await Deno.readLink(`/proc/${fleet.httpPid}/fd/${entry.name}`).catch(() => "");
    if (target.includes("/logs/")) n++;
  }
  return n;
}
console.log(`pane log files the server holds open: ${await logFds()}`);
if (Deno.env.get("BENCH_LINGER")) {
  await new Promise((r) => setTimeout(r, Number(Deno.env.get("BENCH_LINGER"))));
  console.log(`… ${Deno.env.get("BENCH_LINGER")} ms later: ${await logFds()}`);
}
await topObjects(inspector);
await fleet.stopHttp();
await fleet.killTmux();
await Deno.remove(dir, { recursive: true }).catch(() => {});
Deno.exit(0);

/** The heap snapshot's self sizes summed per constructor, largest first. */
async function topObjects(inspector: V8Inspector): Promise<void> {
  const chunks: string[] = [];
  const socket = inspector.socket;
  const previous = socket.onmessage;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data as string);
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(message.params.chunk);
    else previous?.call(socket, event);
  };
  await inspector.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  const snapshot = JSON.parse(chunks.join(""));
  const fields: string[] = snapshot.snapshot.meta.node_fields;
  const types: string[] = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const sizes = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name = type === "object" || type === "closure" ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    const entry = sizes.get(name) ?? { bytes: 0, count: 0 };
    entry.bytes += snapshot.nodes[i + sizeAt];
    entry.count++;
    sizes.set(name, entry);
  }
  console.log("largest in the heap snapshot (self size):");
  for (const [name, { bytes, count }] of [...sizes.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 20)) {
    console.log(`  ${(bytes / 1e6).toFixed(2).padStart(7)} MB  ${String(count).padStart(7)}  ${name.slice(0, 80)}`);
  }
}
