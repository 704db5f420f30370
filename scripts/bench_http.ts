/**
 * HTTP benchmarks, each next to its baseline measured in the same run:
 *  1. bridge capture_pane and list_sessions round trips over loopback HTTP vs one `tmux` subprocess per call
 *     (what the old bridge does);
 *  2. send_and_capture + wait_for: delay from the moment the pane prints the match to the response;
 *  3. MCP capture_pane over HTTP vs over stdio;
 *  4. 200 concurrent bridge requests on 20 sessions: all correct, none mixed, p95.
 * Run: deno run -A scripts/bench_http.ts [calls]
 */
import { TestServer, tmuxAt } from "../tests/helpers/harness.ts";
import { BridgeProcess } from "../tests/helpers/bridge_process.ts";
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";

const CALLS = Number(Deno.args[0] ?? 300);

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
const line = (label: string, s: number[]) => {
  const { median, p95 } = stats(s);
  console.log(`  ${label.padEnd(34)} median ${fmt(median)}  p95 ${fmt(p95)}`);
  return median;
};

async function prepared(bridge: BridgeProcess, session: string, command: string): Promise<void> {
  await bridge.call({ action: "create_session", session });
  const sent = await bridge.call({
    action: "send_and_capture",
    session,
    text: `PS1='$ '; clear; ${command}`,
    enter: true,
    wait_for: "^\\$$",
    timeout_ms: 10_000,
  });
  if (sent.status !== 200) throw new Error(`setup failed: ${JSON.stringify(sent.body)}`);
}

async function bridgeRoundTrips(bridge: BridgeProcess): Promise<void> {
  await prepared(bridge, "b", "seq 1 100");
  for (let i = 0; i < 10; i++) await bridge.call({ action: "capture_pane", session: "b", lines: 100 });
  const capture: number[] = [], list: number[] = [], floorCapture: number[] = [], floorList: number[] = [];
  // What HTTP itself costs: a bare Deno.serve that answers a small JSON body at once, same client.
  const bare = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    await request.text();
    return Response.json({ ok: true, action: "list_sessions", sessions: ["b"] });
  });
  const bareUrl = `http://127.0.0.1:${bare.addr.port}/v1/tmux`;
  const http: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    const r = await fetch(bareUrl, { method: "POST", body: JSON.stringify({ action: "list_sessions" }) });
    await r.json();
    http.push(performance.now() - t);
    t = performance.now();
    await bridge.call({ action: "capture_pane", session: "b", lines: 100 });
    capture.push(performance.now() - t);
    t = performance.now();
    await bridge.call({ action: "list_sessions" });
    list.push(performance.now() - t);
    t = performance.now();
    await tmuxAt(bridge.socket, "capture-pane", "-p", "-t", "b", "-S", "-100");
    floorCapture.push(performance.now() - t);
    t = performance.now();
    await tmuxAt(bridge.socket, "list-sessions", "-F", "#{session_name}");
    floorList.push(performance.now() - t);
  }
  console.log(`bridge round trip over loopback HTTP, ${CALLS} calls each (interleaved):`);
  const c = line("capture_pane 100 lines", capture);
  const l = line("list_sessions", list);
  const fc = line("floor: tmux capture-pane process", floorCapture);
  const fl = line("floor: tmux list-sessions process", floorList);
  line("HTTP alone: bare Deno.serve + fetch", http);
  await bare.shutdown();
  console.log(`  ratio floor/bridge: capture ${(fc / c).toFixed(1)}x, list ${(fl / l).toFixed(1)}x`);
}

async function waitForDelay(bridge: BridgeProcess, runs: number): Promise<void> {
  await prepared(bridge, "w", "true");
  const delays: number[] = [];
  for (let i = 0; i < runs; i++) {
    // The shell stamps the time just before printing the line wait_for matches.
    const sent = await bridge.call({
      action: "send_and_capture",
      session: "w",
      text: `sleep 0.05; echo "MARK-${i} $(date +%s%N)"`,
      enter: true,
      wait_for: `^MARK-${i} \\d+$`,
      lines: 3,
    });
    const arrived = performance.timeOrigin + performance.now();
    const stamp = new RegExp(`^MARK-${i} (\\d+)$`, "m").exec(sent.body.output)?.[1];
    if (!stamp) throw new Error(`no stamp: ${JSON.stringify(sent.body)}`);
    delays.push(arrived - Number(BigInt(stamp) / 1000n) / 1000);
  }
  console.log(`send_and_capture + wait_for, ${runs} runs: from the matching output to the response`);
  line("delay", delays);
  console.log("  (the old bridge polls every 120 ms: about 60 ms on average)");
}

async function mcpHttpVsStdio(): Promise<void> {
  await using http = await HttpMcpServer.start();
  await using stdio = await TestServer.start();
  const { client } = await http.client();
  const httpPane = JSON.parse(
    ((await client.callTool({ name: "create_pane", arguments: { command: "seq 1 100; exec cat" } })).content as {
      text: string;
    }[])[0].text,
  ).pane_id;
  const stdioPane = (await stdio.call<{ pane_id: string }>("create_pane", { command: "seq 1 100; exec cat" })).pane_id;
  for (let i = 0; i < 10; i++) {
    await client.callTool({ name: "capture_pane", arguments: { pane_id: httpPane } });
    await stdio.call("capture_pane", { pane_id: stdioPane });
  }
  const overHttp: number[] = [], overStdio: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await client.callTool({ name: "capture_pane", arguments: { pane_id: httpPane, lines: 100 } });
    overHttp.push(performance.now() - t);
    t = performance.now();
    await stdio.client.callTool({ name: "capture_pane", arguments: { pane_id: stdioPane, lines: 100 } });
    overStdio.push(performance.now() - t);
  }
  console.log(`MCP capture_pane 100 lines, ${CALLS} calls each (interleaved):`);
  const h = line("over Streamable HTTP (SSE reply)", overHttp);
  const s = line("over stdio", overStdio);
  console.log(`  ratio HTTP/stdio ${(h / s).toFixed(2)}x`);
  await client.close();
}

async function concurrent(bridge: BridgeProcess): Promise<void> {
  const sessions = Array.from({ length: 20 }, (_, i) => `c${i}`);
  await Promise.all(sessions.map((s) => prepared(bridge, s, `echo ONLY-${s}`)));
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
    const session = sessions[i % 20];
    const t = performance.now();
    const r = await bridge.call({ action: "capture_pane", session, lines: 5 });
    const others = (r.body.output as string).match(/ONLY-c\d+/g) ?? [];
    const correct = r.status === 200 && others.length > 0 && others.every((m) => m === `ONLY-${session}`);
    return { ms: performance.now() - t, correct };
  }));
  const wall = performance.now() - started;
  const wrong = results.filter((r) => !r.correct).length;
  console.log(`200 concurrent capture_pane requests on 20 sessions: ${200 - wrong} correct, ${wrong} wrong or mixed`);
  line("per request", results.map((r) => r.ms));
  console.log(`  all 200 answered in ${fmt(wall)}`);
}

{
  await using bridge = await BridgeProcess.start({ SHELL: "/bin/bash" });
  await bridgeRoundTrips(bridge);
  await waitForDelay(bridge, 60);
  await concurrent(bridge);
}
await mcpHttpVsStdio();
