/**
 * Many servers on one tmux server: latency of the first call (`execute_command("echo hi")` right
 * after the MCP handshake: workspace, owner lock, reaping, default pane, shell start) of a server
 * that joins five live ones, against a server alone on its tmux server, interleaved in one run.
 * Also: six servers making their first call at the same moment (two cores: CPU-bound).
 * Run: deno run -A scripts/bench_multi.ts [runs]
 */
import { TestServer, tmuxAt } from "../tests/helpers/harness.ts";

const RUNS = Number(Deno.args[0] ?? 10);
const OTHERS = 5;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** A tmux server with a person's session on it, as on a desktop. */
async function tmuxServer(): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twbm" });
  await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "users-own");
  return dir;
}

async function dispose(dir: string, servers: TestServer[]): Promise<void> {
  await Promise.all(servers.map((s) => s.close(false)));
  await tmuxAt(`${dir}/s`, "kill-server");
  await Deno.remove(dir, { recursive: true });
}

async function firstCall(server: TestServer): Promise<number> {
  const started = performance.now();
  const result = await server.call<{ output: string }>("execute_command", { command: "echo hi" });
  const elapsed = performance.now() - started;
  if (result.output !== "hi") throw new Error(`unexpected output ${JSON.stringify(result.output)}`);
  return elapsed;
}

/** One fresh server joining `dir`: its first call, then it leaves. */
async function join(dir: string): Promise<number> {
  const server = await TestServer.start({ dir });
  try {
    return await firstCall(server);
  } finally {
    await server.close(false);
  }
}

const aloneDir = await tmuxServer();
const sharedDir = await tmuxServer();
const others: TestServer[] = [];
for (let i = 0; i < OTHERS; i++) {
  const server = await TestServer.start({ dir: sharedDir });
  await firstCall(server);
  others.push(server);
}
await join(aloneDir); // warm caches
await join(sharedDir);

const alone: number[] = [], shared: number[] = [];
for (let i = 0; i < RUNS; i++) {
  alone.push(await join(aloneDir));
  shared.push(await join(sharedDir)); // five live workspaces (idle, each with its default pane) beside it
}
await dispose(aloneDir, []);
await dispose(sharedDir, others);

// Six first calls at once: on one shared tmux server, and on six separate ones (the same CPU load
// without the sharing), alternating.
const burst: number[] = [], apart: number[] = [];
for (let i = 0; i < Math.max(2, Math.floor(RUNS / 3)); i++) {
  const dir = await tmuxServer();
  const six = await Promise.all(Array.from({ length: OTHERS + 1 }, () => TestServer.start({ dir })));
  burst.push(...await Promise.all(six.map(firstCall)));
  await dispose(dir, six);
  const dirs = await Promise.all(Array.from({ length: OTHERS + 1 }, tmuxServer));
  const separate = await Promise.all(dirs.map((d) => TestServer.start({ dir: d })));
  apart.push(...await Promise.all(separate.map(firstCall)));
  await Promise.all(dirs.map((d, j) => dispose(d, [separate[j]])));
}

console.log(`first execute_command("echo hi") after start, ${RUNS} runs each (interleaved):`);
console.log(`  alone on its tmux server              median ${fmt(median(alone))}`);
console.log(`  joining ${OTHERS} live servers on one tmux   median ${fmt(median(shared))}`);
console.log(`  ratio shared/alone                    ${(median(shared) / median(alone)).toFixed(2)}x (goal <= 1.5x)`);
console.log(`six servers making their first call at the same moment (${navigator.hardwareConcurrency} cores):`);
console.log(`  on one tmux server     median ${fmt(median(burst))}  max ${fmt(Math.max(...burst))}`);
console.log(`  on six tmux servers    median ${fmt(median(apart))}  max ${fmt(Math.max(...apart))}`);
console.log(`  ratio shared/apart     ${(median(burst) / median(apart)).toFixed(2)}x`);
