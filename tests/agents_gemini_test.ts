import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { AgentModel } from "./helpers/agent_standin.ts";
import { AgentProcesses, geminiPane } from "./helpers/agent_panes.ts";
import {
  type AgentCase,
  callerOf,
  exactTurns,
  median,
  parallelTurns,
  questionTurn,
  slowTurn,
  startAgent,
} from "./helpers/agent_proof.ts";

// Gemini CLI (pinned in helpers/agent_clients.ts) in tmuxwright panes, its model a scripted stand-in,
// driven with run_in_repl and no prompt: one call a turn, read from its title and screen.
const GEMINI: AgentCase = { answer: { keys: ["Enter"] }, asks: /Allow execution of \[Shell\]\?\n\n● 1\. Allow once/ };

Deno.test("Gemini CLI in a pane, in colour: exact replies within 500 ms of the model's last byte, a 5 s turn, a question answered", async (t) => {
  await using processes = new AgentProcesses();
  await using server = await TestServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const call = (name: string, args: Record<string, unknown>) => server.call(name, args);
  const pane = await startAgent(
    call,
    await geminiPane(`${server.dir}/gemini`, model.url, "colour"),
    "gemini",
    processes,
  );

  await t.step("replies, exactly, from its screen; the turn's end to the answer", async () => {
    const latencies = await exactTurns(call, pane, model, 6, "gemini");
    const rest = latencies.slice(1); // the first turn waits for the CLI to start
    assert.ok(median(rest) <= 500, `median ${median(rest)} ms of ${rest.map(Math.round)}`);
  });
  await t.step(
    "a turn whose model answers after 5 s: after it, not before",
    () => slowTurn(call, pane, model, "gemini"),
  );
  await t.step(
    "a tool's permission: outcome input, answered with send_keys",
    () => questionTurn(call, pane, server.dir, GEMINI, "gemini"),
  );
});

Deno.test("two Gemini CLI panes driven in parallel by two callers, under NO_COLOR", async () => {
  await using processes = new AgentProcesses();
  await using server = await HttpMcpServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const callers = await Promise.all(["lead-a", "lead-b"].map(async (tag) => {
    const { client } = await server.client({}, { name: tag, version: "1.0.0" });
    const call = callerOf(client);
    const pane = await startAgent(
      call,
      await geminiPane(`${server.dir}/${tag}`, model.url, "NO_COLOR"),
      tag,
      processes,
    );
    return { call, pane, tag, client };
  }));
  await parallelTurns(callers, model);
  for (const { client } of callers) await client.close();
});
