/**
 * Many agents on one HTTP server, each MCP session with its own workspace (its own `default` pane):
 *  1. the curve from 1 to 64 sessions, each making CALLS `execute_command` one after another, all at
 *     once: exact outputs, errors, calls/s, p50/p95/p99, the server's RSS per open session, and the
 *     CPU the server and tmux spent (what bounds throughput);
 *  2. the bridge (`/v1/tmux`): 32 clients doing `send_and_capture` at once, each in its own session;
 *  3. slow and broken clients: 4 sessions' p95 alone, then while 1,000 silent connections, 100 clients
 *     dribbling headers, an unread SSE stream and a body sent a byte a second are open.
 * Run: deno run -A scripts/bench_http_load.ts [calls per session, default 50] [max sessions, default 64]
 * (BENCH_ONLY=bridge runs part 2 alone.)
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import type { Client } from "../tests/helpers/sdk_client.ts";

const CALLS = Number(Deno.args[0] ?? 50);
const MAX_SESSIONS = Number(Deno.args[1] ?? 64);
const CURVE = [1, 4, 16, 64].filter((n) => n <= MAX_SESSIONS);
const TICKS = 100; // clock ticks per second for /proc/<pid>/stat

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function rssKiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

/** User + system CPU seconds of a process (and its reaped children). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
}

/** Busy and total jiffies of the whole machine (every core), from /proc/stat. */
async function machineJiffies(): Promise<{ busy: number; total: number }> {
  const cpu = (await Deno.readTextFile("/proc/stat")).split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - cpu[3] - cpu[4], total };
}

async function tmuxServerPid(server: HttpMcpServer): Promise<number> {
  const out = await server.tmux("display-message", "-p", "#{pid}");
  return Number(out.stdout.trim());
}

interface Text {
  content: { type: string; text: string }[];
  structuredContent?: { output?: string; exit_code?: number };
  isError?: boolean;
}

/** One agent: CALLS execute_command in its own default pane, each output checked exactly. */
async function agent(client: Client, id: number, latencies: number[]): Promise<{ exact: number; errors: string[] }> {
  let exact = 0;
  const errors: string[] = [];
  for (let i = 0; i < CALLS; i++) {
    const token = `agent${id}-call${i}`;
    const started = performance.now();
    try {
      const result = await client.callTool(
        { name: "execute_command", arguments: { command: `echo ${token}` } },
        undefined,
        { timeout: 120_000 },
      ) as Text;
      latencies.push(performance.now() - started);
      const out = result.structuredContent;
      if (!result.isError && out?.output === token && out.exit_code === 0) exact++;
      else errors.push(`${token}: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 200)}`);
    } catch (error) {
      errors.push(`${token}: ${(error as Error).message}`);
    }
  }
  return { exact, errors };
}

async function curvePoint(server: HttpMcpServer, sessions: number): Promise<void> {
  const before = await rssKiB(server.pid);
  const clients = await Promise.all(Array.from({ length: sessions }, () => server.client()));
  // Each session's workspace and default pane exist before the clock starts (a first command).
  await Promise.all(
    clients.map(({ client }) =>
      client.callTool({ name: "execute_command", arguments: { command: "true" } }, undefined, { timeout: 120_000 })
    ),
  );
  const open = await rssKiB(server.pid);
  const tmuxPid = await tmuxServerPid(server);
  const [cpu0, tmux0, machine0] = [await cpuSeconds(server.pid), await cpuSeconds(tmuxPid), await machineJiffies()];
  const latencies: number[] = [];
  const started = performance.now();
  const results = await Promise.all(clients.map(({ client }, id) => agent(client, id, latencies)));
  const wall = (performance.now() - started) / 1000;
  const [cpu1, tmux1, machine1] = [await cpuSeconds(server.pid), await cpuSeconds(tmuxPid), await machineJiffies()];
  const machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total) * 100;
  const after = await rssKiB(server.pid);
  // DELETE /mcp ends each session and its workspace, as an agent that is done does.
  await Promise.all(clients.map(async ({ client, transport }) => {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }));
  const sorted = latencies.sort((a, b) => a - b);
  const exact = results.reduce((n, r) => n + r.exact, 0);
  const errors = results.flatMap((r) => r.errors);
  console.log(
    `  ${String(sessions).padStart(2)} sessions × ${CALLS}: ${exact}/${
      sessions * CALLS
    } exact, ${errors.length} errors, ` +
      `${(sessions * CALLS / wall).toFixed(0)} calls/s, p50 ${percentile(sorted, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(sorted, 0.95).toFixed(1)}, p99 ${percentile(sorted, 0.99).toFixed(1)}; ` +
      `RSS ${(before / 1024).toFixed(0)} → ${(open / 1024).toFixed(0)} MiB open (${
        ((open - before) / sessions).toFixed(0)
      } KiB/session), ` +
      `${(after / 1024).toFixed(0)} after; CPU server ${((cpu1 - cpu0) / wall * 100).toFixed(0)}%, ` +
      `tmux ${((tmux1 - tmux0) / wall * 100).toFixed(0)}% of one core; machine ${machineBusy.toFixed(0)}% busy`,
  );
  for (const error of errors.slice(0, 5)) console.log(`    error: ${error}`);
}

async function bridgeLoad(server: HttpMcpServer, clients: number): Promise<void> {
  const url = `${server.url}/v1/tmux`;
  const call = async (body: unknown) => {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => call({ action: "create_session", session: `load${i}` })));
  const latencies: number[] = [];
  const firsts: number[] = [];
  const later: number[] = [];
  let exact = 0;
  const errors: string[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async (_, i) => {
    for (let j = 0; j < CALLS; j++) {
      const token = `bridge${i}-call${j}`;
      const t = performance.now();
      const sent = await call({
        action: "send_and_capture",
        session: `load${i}`,
        text: `echo ${token}`,
        enter: true,
        wait_for: `^${token}$`,
        timeout_ms: 60_000,
      }).catch((e) => ({ status: 0, body: { error: String(e) } }));
      latencies.push(performance.now() - t);
      (j === 0 ? firsts : later).push(performance.now() - t);
      if (sent.status === 200 && String(sent.body.output ?? sent.body.text ?? "").includes(token)) exact++;
      else errors.push(`${token}: ${sent.status} ${JSON.stringify(sent.body).slice(0, 160)}`);
    }
  }));
  const wall = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    `  ${clients} bridge clients × ${CALLS} send_and_capture: ${exact}/${clients * CALLS} saw their line, ` +
      `${errors.length} errors, ${(clients * CALLS / wall).toFixed(0)} calls/s, p50 ${
        percentile(sorted, 0.5).toFixed(1)
      } ms, p95 ${percentile(sorted, 0.95).toFixed(1)}, p99 ${percentile(sorted, 0.99).toFixed(1)}`,
  );
  // Each client's first wait subscribes to its session's output (a control client attached, one at a time).
  const [f, l] = [firsts.sort((a, b) => a - b), later.sort((a, b) => a - b)];
  console.log(
    `    each client's first call: p50 ${percentile(f, 0.5).toFixed(1)} ms, max ${f.at(-1)?.toFixed(1)}; ` +
      `later calls: p50 ${percentile(l, 0.5).toFixed(1)}, p95 ${percentile(l, 0.95).toFixed(1)}, p99 ${
        percentile(l, 0.99).toFixed(1)
      }`,
  );
  for (const error of errors.slice(0, 5)) console.log(`    error: ${error}`);
  await Promise.all(Array.from({ length: clients }, (_, i) => call({ action: "kill_session", session: `load${i}` })));
}

/** 4 sessions × CALLS execute_command at once; the latencies. */
async function fourSessions(server: HttpMcpServer): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: 4 }, () => server.client()));
  await Promise.all(
    clients.map(({ client }) => client.callTool({ name: "execute_command", arguments: { command: "true" } })),
  );
  const latencies: number[] = [];
  await Promise.all(clients.map(({ client }, id) => agent(client, id, latencies)));
  await Promise.all(clients.map(async ({ client, transport }) => {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }));
  return latencies.sort((a, b) => a - b);
}

async function abuse(server: HttpMcpServer): Promise<void> {
  const port = Number(new URL(server.url).port);
  const quiet = await fourSessions(server);
  const before = await rssKiB(server.pid);
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < 1000; i++) conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
  const encoder = new TextEncoder();
  const dribblers: Deno.Conn[] = [];
  for (let i = 0; i < 100; i++) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(encoder.encode("POST /mcp HTTP/1.1\r\n"));
    dribblers.push(conn);
  }
  const dribble = setInterval(() => {
    for (const conn of dribblers) conn.write(encoder.encode("X-A: b\r\n")).catch(() => {});
  }, 1000);
  // A session opened by hand whose standalone SSE stream is opened and never read.
  const init = await server.initializeRaw("unread");
  const session = init.headers.get("mcp-session-id")!;
  await init.body?.cancel();
  const sse = await fetch(server.mcpUrl, {
    headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
  });
  const loaded = await fourSessions(server);
  const during = await rssKiB(server.pid);
  clearInterval(dribble);
  [...conns, ...dribblers].forEach((conn) => {
    try {
      conn.close();
    } catch { /* closed by the server's deadline */ }
  });
  await sse.body?.cancel().catch(() => {});
  const p95 = (s: number[]) => percentile(s, 0.95);
  console.log(
    `  4 sessions × ${CALLS}: p95 ${p95(quiet).toFixed(1)} ms alone, ${p95(loaded).toFixed(1)} ms with 1,000 silent ` +
      `connections, 100 dribbling headers and an unread SSE stream (${(p95(loaded) / p95(quiet)).toFixed(2)}×); ` +
      `RSS ${(before / 1024).toFixed(0)} → ${(during / 1024).toFixed(0)} MiB`,
  );
}

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
console.log(`HTTP load (load average ${load}, ${navigator.hardwareConcurrency} cores), a workspace per MCP session:`);
await using server = await HttpMcpServer.start();
console.log(`  idle server RSS ${((await rssKiB(server.pid)) / 1024).toFixed(0)} MiB`);
// BENCH_ONLY=bridge: only the bridge's 32 clients.
const only = Deno.env.get("BENCH_ONLY");
if (!only) { for (const sessions of CURVE) await curvePoint(server, sessions); }
console.log("The bridge (/v1/tmux):");
await bridgeLoad(server, Math.min(32, MAX_SESSIONS));
if (!only) console.log("Slow and broken clients:");
if (!only) await abuse(server);
