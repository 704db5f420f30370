/**
 * execute_command / start_process latency, end to end through MCP stdio against the real server.
 * Run: deno run -A scripts/bench_exec.ts [rounds] [--before ENTRY]
 * With --before (a bundle of an earlier version, `deno bundle --platform deno -o X main.ts`), the
 * same calls go to both servers in alternation, so the figures are side by side in one run.
 * Two panes each: a bash started with --norc by create_pane (commands typed in a wrapper line)
 * and the default pane, the user's shell ($SHELL=/bin/bash, started by the server: integrated).
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { BareClient } from "./bare_client.ts";

const rounds = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 100);
const beforeAt = Deno.args.indexOf("--before");
const beforeEntry = beforeAt >= 0 ? Deno.args[beforeAt + 1] : undefined;

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms (n=${values.length})`;
}

const wallMs = () => performance.timeOrigin + performance.now();

interface Target {
  label: string;
  server: TestServer;
  pane: Record<string, string>;
  true: number[];
  sleep: number[];
  sleepServer: number[];
}

async function targets(label: string, server: TestServer): Promise<Target[]> {
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {
    command: "exec bash --norc --noprofile",
  });
  const made: Target[] = [];
  for (const [kind, pane] of [["bash --norc pane", { pane_id }], ["default pane", {}]] as const) {
    await server.call("execute_command", { ...pane, command: "true" }); // warm up
    made.push({ label: `${label}, ${kind}`, server, pane, true: [], sleep: [], sleepServer: [] });
  }
  return made;
}

const env = { SHELL: "/bin/bash" };
await using server = await TestServer.start({ env });
await using before = beforeEntry ? await TestServer.start({ env, entry: beforeEntry }) : null;
const all = [...(before ? await targets("before", before) : []), ...await targets("this version", server)];
const baseline: number[] = [];
for (let i = 0; i < rounds; i++) {
  for (const target of all) {
    const t = performance.now();
    await target.server.call("execute_command", { ...target.pane, command: "true" });
    target.true.push(performance.now() - t);
  }
  const t = performance.now();
  await server.call("send_keys", { pane_id: all.at(-1)!.pane.pane_id ?? "default", text: "", keys: ["Escape"] });
  baseline.push(performance.now() - t);
}
// The floor of any tmux-based tool: a bare control client types `sleep 0.2` into a `bash --norc`
// pane and reads %output until the next prompt; and bash's own time for `sleep 0.2` (fork, exec, wait).
await using floor = await BareClient.open(server.socket);
const floorSleep: number[] = [];
const shellSleep: number[] = [];
for (let i = 0; i < Math.max(10, rounds / 5); i++) {
  floorSleep.push(await floor.run("sleep 0.2") - 200);
  shellSleep.push(await floor.shellTime("sleep 0.2") - 200);
  for (const target of all) {
    const t = performance.now();
    const r = await target.server.call<{ duration_ms: number }>("execute_command", {
      ...target.pane,
      command: "sleep 0.2",
    });
    target.sleep.push(performance.now() - t - 200);
    target.sleepServer.push(r.duration_ms - 200);
  }
}
for (const target of all) {
  console.log(`${target.label}:`);
  console.log(`  execute_command("true"), end to end:               ${stats(target.true)}`);
  console.log(`  execute_command("sleep 0.2") - 200 ms, end to end: ${stats(target.sleep)}`);
  console.log(`  same, server-side duration_ms - 200:               ${stats(target.sleepServer)}`);
}
console.log(`send_keys (MCP round trip baseline):                  ${stats(baseline)}`);
console.log(`floor: bare tmux -C client types sleep 0.2 - 200 ms:  ${stats(floorSleep)}`);
console.log(`floor: bash's own sleep 0.2 ($EPOCHREALTIME) - 200:  ${stats(shellSleep)}`);
const pane_id = all.at(-2)!.pane.pane_id; // this version's bash --norc pane

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
