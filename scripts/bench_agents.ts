/**
 * Many agents at once over HTTP, with light and heavy shells in one run: each agent opens its own
 * MCP session (its own workspace), makes a pane with create_pane, then runs CALLS execute_command
 * in it (`echo TOKEN`, timeout_ms 30000), each output checked exactly. A quarter of the agents then
 * go away without a word (no DELETE): their workspaces must be gone once the idle expiry passed.
 *
 *   deno run -A scripts/bench_agents.ts [--agents 48] [--calls 30] [--homes light,heavy,root] [--idle-ms 10000]
 *     [--era 2025|2026]
 *
 * `--era 2026`: every agent speaks MCP 2026-07-28 (the SDK v2 client pinned to it): no session, its
 * workspace named by the handle each result hands back; no agent says goodbye (there is nothing to
 * end), so every workspace must be gone once the idle expiry passed.
 * Per home: throughput, execute_command p50/p95, create_pane p50/max, calls answered past their
 * deadline (src/mcp/deadlines.ts: timeout_ms + 1 s, or the tool's bound), client timeouts (no
 * answer after 60 s, the SDK's default), errors by code, and what the dropped sessions left. The
 * machine's load average is printed before and after: compare light and heavy of the same run.
 */
import { parseArgs } from "node:util";
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { heavyHome } from "../tests/helpers/heavy_shell.ts";
import type { Client } from "../tests/helpers/sdk_client.ts";
import { ModernClient } from "../tests/helpers/modern_client.ts";
import { callDeadline } from "../src/mcp/deadlines.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    agents: { type: "string", default: "48" },
    calls: { type: "string", default: "30" },
    homes: { type: "string", default: "light,heavy" },
    "idle-ms": { type: "string", default: "10000" },
    shell: { type: "string", default: "/bin/bash" },
    era: { type: "string", default: "2025" },
  },
});
const MODERN = values.era === "2026";
const AGENTS = Number(values.agents);
const CALLS = Number(values.calls);
const IDLE_MS = Number(values["idle-ms"]);
const CLIENT_TIMEOUT_MS = 60_000;
const EXEC_TIMEOUT_MS = 30_000;

interface Tally {
  exec: number[];
  create: number[];
  exact: number;
  late: string[];
  clientTimeouts: string[];
  errors: Map<string, number>;
  samples: string[];
}

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

/** Calls a tool as the agent's era does (a 2026 agent hands its workspace handle back). */
type Caller = (tool: string, args: Record<string, unknown>) => Promise<Result>;

function caller(client: Client | ModernClient): Caller {
  if (client instanceof ModernClient) {
    return async (tool, args) => await client.result(tool, args, { timeout: CLIENT_TIMEOUT_MS }) as Result;
  }
  return async (tool, args) =>
    await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CLIENT_TIMEOUT_MS }) as Result;
}

/** One call, timed and held to its deadline; null when the client gave up (no answer in 60 s). */
async function timed(call: Caller, tool: string, args: Record<string, unknown>, tally: Tally, label: string) {
  const started = performance.now();
  try {
    const result = await call(tool, args);
    const ms = performance.now() - started;
    const { answerByMs } = callDeadline(tool, args);
    if (ms > answerByMs) {
      tally.late.push(`${label}: ${tool} answered after ${ms.toFixed(0)} ms (deadline ${answerByMs})`);
    }
    if (result.isError) {
      const text = result.content[0]?.text ?? "";
      const code = /^([A-Z_]+):/.exec(text)?.[1] ?? "NO_CODE";
      tally.errors.set(code, (tally.errors.get(code) ?? 0) + 1);
      if (tally.samples.length < 6) tally.samples.push(`${label}: ${tool}: ${text.slice(0, 240)}`);
    }
    return { result, ms };
  } catch (error) {
    const ms = performance.now() - started;
    tally.clientTimeouts.push(`${label}: ${tool} after ${ms.toFixed(0)} ms: ${(error as Error).message.slice(0, 120)}`);
    return null;
  }
}

async function agent(
  server: HttpMcpServer,
  id: number,
  tally: Tally,
): Promise<{ drop: boolean; done: () => Promise<void> }> {
  let call: Caller;
  let done: () => Promise<void>;
  // A 2026 agent has no session to end: every one "drops", and its workspace's lease ends it.
  const drop = MODERN || id % 4 === 3;
  if (MODERN) {
    const modern = await ModernClient.http(server.mcpUrl, { mode: "pin", info: { name: `agent${id}`, version: "1" } });
    call = caller(modern);
    done = () => modern[Symbol.asyncDispose]();
  } else {
    const { client, transport } = await server.client();
    call = caller(client);
    done = async () => {
      if (!drop) await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    };
  }
  const made = await timed(call, "create_pane", { name: `agent${id}` }, tally, `agent${id}`);
  if (!made || made.result.isError) return { drop, done };
  tally.create.push(made.ms);
  const paneId = String(made.result.structuredContent?.pane_id);
  for (let i = 0; i < CALLS; i++) {
    const token = `agent${id}-call${i}`;
    const args = { pane_id: paneId, command: `echo ${token}`, timeout_ms: EXEC_TIMEOUT_MS };
    const ran = await timed(call, "execute_command", args, tally, token);
    if (!ran) continue;
    tally.exec.push(ran.ms);
    const out = ran.result.structuredContent;
    if (!ran.result.isError && out?.output === token && out.exit_code === 0) tally.exact++;
    else if (!ran.result.isError && tally.samples.length < 6) {
      tally.samples.push(`${token}: ${JSON.stringify(out).slice(0, 240)}`);
    }
  }
  return { drop, done };
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Owned panes and workspace sessions still on the tmux server. */
async function leftovers(server: HttpMcpServer): Promise<{ panes: number; sessions: string[] }> {
  const panes = await server.tmux("list-panes", "-a", "-F", "#{@tmuxwright_owner}");
  const owned = panes.stdout.split("\n").filter((line) => line.trim() !== "").length;
  const sessions = await server.tmux("list-sessions", "-F", "#{session_name}");
  const workspaces = sessions.stdout.split("\n").filter((name) => /^tmuxwright-\d+-\d+$/.test(name));
  return { panes: owned, sessions: workspaces };
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  await using server = await HttpMcpServer.start({ env: { ...env, TMUXWRIGHT_MCP_IDLE_MS: String(IDLE_MS) } });
  const tally: Tally = { exec: [], create: [], exact: 0, late: [], clientTimeouts: [], errors: new Map(), samples: [] };
  const started = performance.now();
  const agents = await Promise.all(Array.from({ length: AGENTS }, (_, id) => agent(server, id, tally)));
  const wall = (performance.now() - started) / 1000;
  await Promise.all(agents.map((a) => a.done()));
  const dropped = agents.filter((a) => a.drop).length;
  // The idle expiry, then its sweep (a quarter of it) and the workspace's end.
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 1.25 + 10_000));
  const left = await leftovers(server);
  const calls = tally.exec.length + tally.create.length;
  const errors = [...tally.errors].map(([code, n]) => `${code} ${n}`).join(", ") || "none";
  console.log(
    `${label}: ${AGENTS} agents × (create_pane + ${CALLS} execute_command) in ${wall.toFixed(1)} s: ` +
      `${(calls / wall).toFixed(1)} calls/s; ${tally.exact}/${AGENTS * CALLS} exact; ` +
      `execute_command p50 ${percentile(tally.exec, 0.5).toFixed(0)} ms, p95 ${
        percentile(tally.exec, 0.95).toFixed(0)
      } ms; ` +
      `create_pane p50 ${percentile(tally.create, 0.5).toFixed(0)} ms, max ${
        Math.max(...tally.create).toFixed(0)
      } ms; ` +
      `past deadline ${tally.late.length}; client timeouts ${tally.clientTimeouts.length}; errors: ${errors}; ` +
      `${dropped} ${MODERN ? "workspaces (MCP 2026: no sessions) left idle" : "sessions dropped"}: ` +
      `${left.panes} owned panes and ${left.sessions.length} workspaces left after the expiry`,
  );
  for (const line of [...tally.late, ...tally.clientTimeouts, ...tally.samples].slice(0, 12)) console.log(`  ${line}`);
}

const loadavg = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const homes = values.homes.split(",");
const heavy = homes.includes("heavy") ? await heavyHome() : null;
console.log(`load average before: ${await loadavg()} (${navigator.hardwareConcurrency} cores)`);
try {
  for (const home of homes) {
    const env: Record<string, string> = { SHELL: values.shell };
    if (home === "heavy") env.HOME = heavy!;
    if (home === "root") env.HOME = Deno.env.get("HOME") ?? "/root";
    await run(MODERN ? `${home}, MCP 2026` : home, env);
    console.log(`load average: ${await loadavg()}`);
  }
} finally {
  if (heavy) await Deno.remove(heavy, { recursive: true });
}
