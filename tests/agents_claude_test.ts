import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { AgentModel, replyTo } from "./helpers/agent_standin.ts";
import { AgentProcesses, claudePane } from "./helpers/agent_panes.ts";
import {
  type AgentCase,
  agentStatus,
  callerOf,
  exactTurns,
  median,
  parallelTurns,
  questionTurn,
  slowTurn,
  startAgent,
} from "./helpers/agent_proof.ts";

// Claude Code (pinned in helpers/agent_clients.ts) in tmuxwright panes, its model a scripted stand-in,
// driven with run_in_repl and no prompt: one call a turn.
const CLAUDE: AgentCase = { answer: { keys: ["Enter"] }, asks: /Do you want to proceed\?\n❯ 1\. Yes/ };

Deno.test("Claude Code in a pane: exact replies within 500 ms of the model's last byte, a 5 s turn, a question answered", async (t) => {
  await using processes = new AgentProcesses();
  await using server = await TestServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const call = (name: string, args: Record<string, unknown>) => server.call(name, args);
  const setup = await claudePane(`${server.dir}/claude`, model.url);
  const pane = await startAgent(call, setup, "claude", processes);

  await t.step("replies, exactly, from its Stop hook; the turn's end to the answer", async () => {
    const latencies = await exactTurns(call, pane, model, 6, "claude");
    const turn = await call("run_in_repl", { pane_id: pane }); // no input: the last turn again
    assert.equal(turn.reply_from, "hooks");
    assert.equal(turn.output, replyTo("claude: tell me something, turn 5"));
    // The first turn waits for the CLI to start: the others are the measure.
    const rest = latencies.slice(1);
    assert.ok(median(rest) <= 500, `median ${median(rest)} ms of ${rest.map(Math.round)}`);
  });
  await t.step(
    "a turn whose model answers after 5 s: after it, not before",
    () => slowTurn(call, pane, model, "claude"),
  );
  await t.step(
    "a tool's permission: outcome input, answered with send_keys",
    () => questionTurn(call, pane, server.dir, CLAUDE, "claude"),
  );
  await t.step("the hooks are only tmuxwright's: in its pane's environment, not in the person's settings", async () => {
    const shown = await server.tmux("show-environment", "-t", pane);
    assert.equal(shown.code, 0);
    const env = (await server.call<{ output: string }>("execute_command", {
      command: "printf '%s\\n' \"$CLAUDE_CODE_PLUGIN_DIRS\"",
    })).output;
    assert.equal(env, `${server.dir}/state/agents/claude/plugin`);
    const settings = await Deno.readTextFile(`${server.dir}/claude/home/.claude/settings.json`).catch(() => null);
    assert.ok(settings === null || !settings.includes("tmuxwright"), settings ?? "");
  });
});

Deno.test("Claude Code in a person's own pane (no hooks): the turn's end and reply from its screen", async () => {
  await using processes = new AgentProcesses();
  await using server = await TestServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const setup = await claudePane(`${server.dir}/claude`, model.url);
  const env = Object.entries(setup.env).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
  const made = await server.tmux(
    "new-session",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "-s",
    "person",
    "-x",
    "160",
    "-y",
    "50",
    "-c",
    setup.cwd,
    ...env,
    setup.command,
  );
  const pane = made.stdout.trim();
  const call = (name: string, args: Record<string, unknown>) => server.call(name, args);
  const input = "from the person's pane";
  const turn = await call("run_in_repl", { pane_id: pane, input, timeout_ms: 90_000 });
  assert.equal(turn.output, replyTo(input));
  assert.equal(turn.reply_from, "screen");
  const status = await agentStatus(call, pane);
  assert.deepEqual([status.state, status.agent_cli.activity], ["idle", "idle"]);
  await slowTurn(call, pane, model, "person");
});

Deno.test("two Claude Code panes driven in parallel by two callers", async () => {
  await using processes = new AgentProcesses();
  await using server = await HttpMcpServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const callers = await Promise.all(["lead-a", "lead-b"].map(async (tag) => {
    const { client } = await server.client({}, { name: tag, version: "1.0.0" });
    const call = callerOf(client);
    const pane = await startAgent(call, await claudePane(`${server.dir}/${tag}`, model.url), tag, processes);
    return { call, pane, tag, client };
  }));
  await parallelTurns(callers, model);
  for (const { client } of callers) await client.close();
});
