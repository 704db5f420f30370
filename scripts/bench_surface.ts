/**
 * The tmux primitives of profile all: wake-up delay of wait_for_channel after a signal (from
 * signal_channel over MCP, and from a shell-side `tmux wait-for -S`), and list_panes latency while a
 * channel wait is pending vs alone (measured side by side in this run).
 * Run: deno run -A scripts/bench_surface.ts [rounds]
 */
import { TestServer, tmuxAt } from "../tests/helpers/harness.ts";

const ROUNDS = Number(Deno.args[0] ?? 50);

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

await using server = await TestServer.start({ args: ["--tools", "all"] });
await server.call("list_panes");

/** Starts a wait, makes sure its waiter runs, signals with `signal`, returns signal → result delay. */
async function wakeUp(channel: string, signal: () => Promise<unknown>): Promise<number> {
  let woke = 0;
  const waiting = server.call<{ signaled: boolean }>("wait_for_channel", { channel, timeout_ms: 30_000 })
    .then((r) => {
      woke = performance.now();
      return r;
    });
  await server.call("list_panes"); // replies in order: the wait has started its waiter by now
  const sent = performance.now();
  await signal();
  if (!(await waiting).signaled) throw new Error("wait was not signaled");
  return woke - sent;
}

const viaTool: number[] = [];
const viaShell: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  viaTool.push(await wakeUp(`bench-${i}`, () => server.call("signal_channel", { channel: `bench-${i}` })));
  viaShell.push(await wakeUp(`shell-${i}`, () => tmuxAt(server.socket, "wait-for", "-S", `shell-${i}`)));
}

async function listLatency(calls: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await server.call("list_panes");
    samples.push(performance.now() - t);
  }
  return samples;
}
await listLatency(20);
const alone: number[] = [], pending: number[] = [];
for (let i = 0; i < 5; i++) { // alternating phases, so machine noise hits both alike
  alone.push(...await listLatency(20));
  const held = server.call("wait_for_channel", { channel: `held-${i}`, timeout_ms: 60_000 });
  pending.push(...await listLatency(20));
  await server.call("signal_channel", { channel: `held-${i}` });
  await held;
}

const t = stats(viaTool), s = stats(viaShell), a = stats(alone), p = stats(pending);
console.log(`wait_for_channel wake-up, ${ROUNDS} rounds each (from the signal being sent to the wait's result):`);
console.log(`  signal_channel over MCP     median ${fmt(t.median)}  p95 ${fmt(t.p95)}  (includes the signal call)`);
console.log(`  tmux wait-for -S (a shell)  median ${fmt(s.median)}  p95 ${fmt(s.p95)}  (includes spawning tmux)`);
console.log(`list_panes, 100 calls each (alternating phases):`);
console.log(`  no wait pending             median ${fmt(a.median)}  p95 ${fmt(a.p95)}`);
console.log(`  a channel wait pending      median ${fmt(p.median)}  p95 ${fmt(p.p95)}`);
