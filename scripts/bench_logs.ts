/**
 * Benchmarks for durable logs and search (figures recorded in docs/BENCHMARKS.md, "Logs and search"):
 *   1. read_logs lines:500 on a 1 GiB log (engine call, then through MCP)
 *   2. search_panes over 100 panes × 2,000 lines of scrollback (through MCP)
 *   3. producer throughput: no log vs `cat` vs the rotating writer, same run, interleaved
 * Run: deno run -A scripts/bench_logs.ts [--log-gb 1] [--produce-mb 100] [--rounds 3] [--only tail|search|produce]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { readTail } from "../src/engine/logs/log_reader.ts";
import { segmentPath } from "../src/engine/output/rotation.ts";
import { pipeCommand, plainPipeCommand } from "../src/engine/output/log_files.ts";
import { recordLog } from "../src/engine/output/registry.ts";
import { TestServer, tmuxAt } from "../tests/helpers/harness.ts";
import { median, timed } from "./timing.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "log-gb": { type: "string" },
    "produce-mb": { type: "string" },
    rounds: { type: "string" },
    only: { type: "string" },
  },
});
const LOG_GB = Number(values["log-gb"] ?? 1);
const PRODUCE_MB = Number(values["produce-mb"] ?? 100);
const ROUNDS = Number(values.rounds ?? 3);

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms (n=${samples.length})`;
}

async function benchTail(): Promise<void> {
  await using server = await TestServer.start();
  const dir = join(server.dir, "state", "logs");
  await Deno.mkdir(dir, { recursive: true });
  const logPath = join(dir, "999999-1-bench.log");
  // A 1 MiB block of numbered lines, written LOG_GB × 1024 times.
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1024 * 1024 - 64; i++) {
    const line = `\x1b[32mINFO\x1b[0m request ${i} served in ${i % 97} ms\r\n`;
    lines.push(line);
    size += line.length;
  }
  const block = new TextEncoder().encode(lines.join("").padEnd(1024 * 1024, "."));
  const file = await Deno.open(segmentPath(logPath, 0), { write: true, create: true, truncate: true });
  const started = performance.now();
  for (let i = 0; i < LOG_GB * 1024; i++) await file.write(block);
  file.close();
  await Deno.symlink(`${logPath.split("/").pop()}.${"0".repeat(16)}`, logPath);
  console.log(`log of ${LOG_GB} GiB written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await readTail(logPath, 500, true);
  console.log(`readTail(500 lines, engine)       ${stats(await timed(50, () => readTail(logPath, 500, true)))}`);
  await recordLog(join(server.dir, "state"), {
    pane_id: "%999",
    name: "big",
    session: "bench",
    socket: null,
    owner_pid: 999999,
    created: new Date().toISOString(),
    path: logPath,
  });
  const viaMcp = await timed(30, () => server.call("read_logs", { pane_id: "big", lines: 500 }));
  console.log(`read_logs lines:500 (via MCP)     ${stats(viaMcp)}`);
}

async function benchSearch(): Promise<void> {
  await using server = await TestServer.start({ args: ["--history-limit", "5000"] });
  for (let i = 0; i < 100; i++) {
    const marker = i === 57 ? "; echo 'FAIL: test_upload'" : "";
    await server.call("create_pane", {
      command: `seq -f 'pane ${i} line %g of some ordinary build output' 1 2000${marker}; sleep 3600`,
    });
  }
  // Wait until every pane has printed its lines.
  for (;;) {
    const out = await server.tmux("list-panes", "-a", "-F", "#{history_size}");
    const sizes = out.stdout.trim().split("\n").map(Number).filter((n) => n > 0);
    if (sizes.length >= 100 && sizes.every((n) => n >= 1950)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const call = () => server.call("search_panes", { pattern: "FAIL: test_upload", scrollback: 2000 });
  const first = await call() as { panes_matched: number };
  if (first.panes_matched !== 1) throw new Error(`expected 1 match, got ${JSON.stringify(first)}`);
  // The floor: tmux producing the same 100 captures for one tmux process (no MCP, no matching).
  const ids = (await server.tmux("list-panes", "-a", "-F", "#{pane_id} #{history_size}")).stdout.trim().split("\n")
    .filter((l) => Number(l.split(" ")[1]) > 0).map((l) => l.split(" ")[0]);
  const chained = ids.flatMap((
    id,
    i,
  ) => [...(i > 0 ? [";"] : []), "capture-pane", "-p", "-J", "-t", id, "-S", "-2000"]);
  const floor = () => server.tmux(...chained);
  const searched: number[] = [], floors: number[] = [], regexes: number[] = [];
  const regex = () => server.call("search_panes", { pattern: "FAIL: test_\\w+", regex: true, scrollback: 2000 });
  for (let i = 0; i < 20; i++) { // interleaved, so load hits each alike
    searched.push(...await timed(1, call));
    floors.push(...await timed(1, floor));
    if (i % 2 === 0) regexes.push(...await timed(1, regex));
  }
  console.log(`search_panes 100 panes × 2000 lines ${stats(searched)}`);
  console.log(`  same, regex                      ${stats(regexes)}`);
  console.log(`  floor: one tmux process, the same 100 captures ${stats(floors)}`);
}

/** Seconds a pane takes to write PRODUCE_MB through the terminal, with the given pipe (or none). */
async function produce(socket: string, dir: string, pipe: "none" | "cat" | "rotating"): Promise<number> {
  const bytes = PRODUCE_MB * 1_000_000;
  const script =
    `read go; s=$(date +%s%N); yes 'a line of ordinary program output, 48 chars.....' | head -c ${bytes}; ` +
    `e=$(date +%s%N); echo; echo "ELAPSED_MS=$(( (e - s) / 1000000 ))"; sleep 3600`;
  const created = await tmuxAt(socket, "new-window", "-d", "-P", "-F", "#{pane_id}", "sh", "-c", script);
  const pane = created.stdout.trim();
  const log = join(dir, `${pipe}-${Date.now()}.log`);
  if (pipe === "cat") await tmuxAt(socket, "pipe-pane", "-t", pane, plainPipeCommand(log));
  if (pipe === "rotating") {
    await tmuxAt(socket, "pipe-pane", "-t", pane, pipeCommand(log, { maxBytes: 64 * 1024 * 1024, keep: 3 }));
  }
  await tmuxAt(socket, "send-keys", "-t", pane, "go", "Enter");
  for (;;) {
    const screen = await tmuxAt(socket, "capture-pane", "-p", "-t", pane);
    const match = /ELAPSED_MS=(\d+)/.exec(screen.stdout);
    if (match) {
      await tmuxAt(socket, "kill-pane", "-t", pane);
      for await (const entry of Deno.readDir(dir)) await Deno.remove(join(dir, entry.name)).catch(() => {});
      return Number(match[1]) / 1000;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function benchProducer(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "twbench" });
  const socket = join(dir, "s");
  const logs = join(dir, "logs");
  await Deno.mkdir(logs);
  await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "200", "-y", "50");
  const results: Record<string, number[]> = { none: [], cat: [], rotating: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const pipe of ["none", "cat", "rotating"] as const) results[pipe].push(await produce(socket, logs, pipe));
    }
  } finally {
    await tmuxAt(socket, "kill-server");
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  const base = median(results.none);
  for (const [name, secs] of Object.entries(results)) {
    const m = median(secs);
    console.log(
      `producer ${PRODUCE_MB} MB, ${name.padEnd(8)} median ${m.toFixed(2)} s = ${(PRODUCE_MB / m).toFixed(1)} MB/s, ` +
        `slowdown ${((m / base - 1) * 100).toFixed(1)}% (runs: ${secs.map((s) => s.toFixed(2)).join(", ")})`,
    );
  }
}

const only = values.only;
if (!only || only === "tail") await benchTail();
if (!only || only === "search") await benchSearch();
if (!only || only === "produce") await benchProducer();
