/**
 * An agent CLI's turn driven through run_in_repl (no prompt), timed from its model's last byte:
 * each pinned CLI (tests/helpers/agent_clients.ts) in a pane of one tmuxwright server over stdio,
 * its model the scripted stand-in of tests/helpers/agent_standin.ts, answering at once.
 *
 *   deno run -A scripts/bench_agent_turns.ts [turns per CLI=11] [claude,codex,gemini]
 *
 * Prints per CLI the median and p95 of the time from the stand-in's last byte of a turn's answer
 * to run_in_repl's answer (the first turn, which waits for the CLI to start, left out), and the
 * median of the whole call.
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { AgentModel, replyTo } from "../tests/helpers/agent_standin.ts";
import { type AgentPane, AgentProcesses, claudePane, codexPane, geminiPane } from "../tests/helpers/agent_panes.ts";
import { median } from "./timing.ts";

const turns = Number(Deno.args[0] ?? 11);
const which = (Deno.args[1] ?? "claude,codex,gemini").split(",");
const setups: Record<string, (dir: string, url: string) => Promise<AgentPane>> = {
  claude: claudePane,
  codex: codexPane,
  gemini: (dir: string, url: string) => geminiPane(dir, url, "colour"),
};

function p95(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

for (const name of which) {
  await using processes = new AgentProcesses();
  await using server = await TestServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const setup = await setups[name](`${server.dir}/${name}`, model.url);
  const { pane_id, pid } = await server.call<{ pane_id: string; pid: number }>("create_pane", { name, ...setup });
  processes.add(pid);
  const afterLastByte: number[] = [];
  const calls: number[] = [];
  let from = "";
  for (let i = 0; i < turns; i++) {
    const input = `bench ${name}: turn ${i}`;
    const started = performance.now();
    const turn = await server.call<{ output: string; reply_from: string }>("run_in_repl", {
      pane_id,
      input,
      timeout_ms: 120_000,
    });
    const returned = performance.now();
    if (turn.output !== replyTo(input)) throw new Error(`${name}: turn ${i} came back as ${JSON.stringify(turn)}`);
    from = turn.reply_from;
    if (i === 0) continue; // it waited for the CLI to start
    afterLastByte.push(returned - model.answerTo(input)!.answeredAt);
    calls.push(returned - started);
  }
  const ms = (v: number) => `${Math.round(v)} ms`;
  console.log(
    `${name}: last byte → answer median ${ms(median(afterLastByte))} (p95 ${ms(p95(afterLastByte))}), ` +
      `call median ${ms(median(calls))}, n=${afterLastByte.length}, reply from ${from}; ` +
      `load ${Deno.loadavg()[0].toFixed(1)}`,
  );
}
