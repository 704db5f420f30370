/**
 * execute_command / start_process latency, end to end through MCP stdio against the real server.
 * Run: deno run --allow-run --allow-env --allow-read --allow-write scripts/bench_exec.ts [rounds]
 */
import { TestServer } from "../tests/helpers/harness.ts";

const rounds = Number(Deno.args[0] ?? 100);

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms (n=${values.length})`;
}

const wallMs = () => performance.timeOrigin + performance.now();

// dash as the login shell keeps start-up files out; the measured panes run bash without rc files.
await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "exec bash --norc --noprofile" });
await server.call("execute_command", { pane_id, command: "true" }); // warm up

const trueTimes: number[] = [];
const echoTimes: number[] = [];
for (let i = 0; i < rounds; i++) {
  let t = performance.now();
  await server.call("execute_command", { pane_id, command: "true" });
  trueTimes.push(performance.now() - t);
  t = performance.now();
  await server.call("send_keys", { pane_id, text: "", keys: ["Escape"] }); // a bare MCP round trip, side by side
  echoTimes.push(performance.now() - t);
}
console.log(`execute_command("true"), end to end:   ${stats(trueTimes)}`);
console.log(`send_keys (MCP round trip baseline):   ${stats(echoTimes)}`);

const sleepDelays: number[] = [];
const sleepServer: number[] = [];
for (let i = 0; i < Math.max(10, rounds / 5); i++) {
  const t = performance.now();
  const r = await server.call<{ duration_ms: number }>("execute_command", { pane_id, command: "sleep 0.2" });
  sleepDelays.push(performance.now() - t - 200);
  sleepServer.push(r.duration_ms - 200);
}
console.log(`execute_command("sleep 0.2") - 200 ms, end to end: ${stats(sleepDelays)}`);
console.log(`  same, server-side duration_ms - 200:           ${stats(sleepServer)}`);

const readyDelays: number[] = [];
const proc = await server.call<{ pane_id: string }>("create_pane", { command: "exec bash --norc --noprofile" });
for (let i = 0; i < Math.max(10, rounds / 5); i++) {
  const r = await server.call<{ outcome: string; matched_line: string }>("start_process", {
    pane_id: proc.pane_id,
    command: `sleep 0.1; printf 'READY %s\\n' "$EPOCHREALTIME"; sleep 30`,
    ready: "^READY",
    timeout_ms: 5000,
  });
  const received = wallMs();
  if (r.outcome !== "ready") throw new Error(`start_process: ${JSON.stringify(r)}`);
  readyDelays.push(received - Number(r.matched_line.split(" ")[1]) * 1000);
  await server.call("stop_process", { pane_id: proc.pane_id, signal: "SIGKILL" });
}
console.log(`start_process ready: line written -> result at client: ${stats(readyDelays)}`);

// Cancellation: the client aborts a running execute_command; time until the pane's shell has the
// terminal again (the command was interrupted). Watched by polling tmux every 2 ms from outside.
const cancelDelays: number[] = [];
for (let i = 0; i < Math.max(10, rounds / 10); i++) {
  const controller = new AbortController();
  const call = server.client.callTool(
    { name: "execute_command", arguments: { pane_id, command: "sleep 30" } },
    undefined,
    {
      signal: controller.signal,
    },
  ).catch(() => {});
  const foreground = async () =>
    (await server.tmux("display-message", "-p", "-t", pane_id, "#{pane_current_command}")).stdout.trim();
  while (await foreground() !== "sleep") await new Promise((r) => setTimeout(r, 2));
  const aborted = performance.now();
  controller.abort();
  while (await foreground() === "sleep") await new Promise((r) => setTimeout(r, 2));
  cancelDelays.push(performance.now() - aborted);
  await call;
  await server.call("execute_command", { pane_id, command: "true" }); // the pane is usable again
}
console.log(`cancel -> command interrupted (pane back at its shell): ${stats(cancelDelays)}`);
