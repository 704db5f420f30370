import assert from "node:assert/strict";
import { clientCommand } from "./helpers/agent_clients.ts";
import { until } from "./helpers/harness.ts";
import {
  askPolicy,
  type ClientWork,
  clientWork,
  COMMAND,
  installBlock,
  policyDecisions,
  RESULT,
  resultJson,
  runClient,
} from "./helpers/client_setup.ts";
import { ModelStandIn, type Script } from "./helpers/model_standin.ts";
import { anthropicAnsweredCalls, anthropicMessage, anthropicToolResults, resultText } from "./helpers/model_apis.ts";

// Claude Code, pinned (helpers/agent_clients.ts), with the packed tmuxwright added exactly as
// docs/install.md says, driven by a scripted stand-in for the Anthropic Messages API.
const TOOL = "mcp__tmuxwright__execute_command";

/** The documented `claude mcp add` line, with this test's isolation after the command. */
async function addAsDocumented(claude: string, work: ClientWork, env: Record<string, string>, extra: string[] = []) {
  const line = await installBlock("sh", /^claude mcp add tmuxwright -- tmuxwright$/);
  const added = await runClient(claude, [...line.split(" ").slice(1), ...work.isolation, ...extra], {
    env,
    cwd: `${work.dir}/project`,
  });
  assert.equal(added.code, 0, added.stderr);
}

function claudeEnv(work: ClientWork, model: ModelStandIn): Record<string, string> {
  return work.env({
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-stand-in",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
}

/** Messages only (count_tokens answered, anything else 404). */
function messages(play: (body: unknown) => Response): Script {
  return ({ path, body }) => {
    if (!path.startsWith("/v1/messages")) return null;
    if (path.includes("count_tokens")) return Response.json({ input_tokens: 10 });
    return play(body);
  };
}

/** The model: load execute_command through ToolSearch, call it once, then end the turn. */
// deno-lint-ignore no-explicit-any
const runOnce = messages((body: any) => {
  const answered = anthropicAnsweredCalls(body).map((call) => call.name);
  if (anthropicToolResults(body).length === 0) {
    return anthropicMessage({ tool: "ToolSearch", input: { query: `select:${TOOL}`, max_results: 5 } });
  }
  if (answered.includes("ToolSearch")) return anthropicMessage({ tool: TOOL, input: { command: COMMAND } });
  return anthropicMessage({ text: "done" });
});

/** The result the client gave its model for the execute_command call. */
function executeResult(model: ModelStandIn) {
  for (const { body } of model.to(/^\/v1\/messages/)) {
    const call = anthropicAnsweredCalls(body).find((c) => c.name === TOOL);
    if (call) return anthropicToolResults(body).find((r) => r.tool_use_id === call.id);
  }
  return undefined;
}

Deno.test("Claude Code: added as documented, connected, and execute_command's exact output reaches the model", async () => {
  const claude = await clientCommand("claude");
  await using work = await clientWork("twclaude");
  await using model = ModelStandIn.start(runOnce);
  const env = claudeEnv(work, model);
  const cwd = `${work.dir}/project`;
  await addAsDocumented(claude, work, env);
  const listed = await runClient(claude, ["mcp", "list"], { env, cwd });
  assert.match(listed.stdout, /^tmuxwright: tmuxwright .*✔ Connected$/m, listed.stdout + listed.stderr);

  const ran = await runClient(claude, ["-p", "Run the command.", "--allowedTools", "mcp__tmuxwright"], { env, cwd });
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(ran.stdout.trim(), "done");
  // The first request: the tools are deferred (names only), the server's instructions are shown.
  const [first] = model.to(/^\/v1\/messages/);
  const text = JSON.stringify(first.body);
  // deno-lint-ignore no-explicit-any
  assert.ok(!first.body.tools.some((t: any) => t.name === TOOL), "execute_command's schema was sent up front");
  assert.ok(text.includes(TOOL) && text.includes("Run a command and get its output and exit code: execute_command"));
  const result = executeResult(model);
  assert.ok(result, JSON.stringify(model.requests.map((r) => r.path)));
  assert.notEqual(result.is_error, true, resultText(result.content));
  assert.deepEqual(pick(resultJson(resultText(result.content))), RESULT);
});

Deno.test("Claude Code opens with server/discover, is answered, and runs in MCP 2026-07-28 (the audit says so)", async () => {
  const claude = await clientCommand("claude");
  await using work = await clientWork("twclaude");
  await using model = ModelStandIn.start(runOnce);
  const env = claudeEnv(work, model);
  const cwd = `${work.dir}/project`;
  await addAsDocumented(claude, work, env, ["--audit", `${work.dir}/audit.jsonl`]);
  const ran = await runClient(claude, ["-p", "Run the command.", "--allowedTools", "mcp__tmuxwright"], { env, cwd });
  assert.equal(ran.code, 0, ran.stderr);
  const result = executeResult(model);
  assert.ok(result);
  assert.deepEqual(pick(resultJson(resultText(result.content))), RESULT);
  // Each tool call's audit line names its era's revision; a call in the 2025 fallback would carry none.
  const lines = (await Deno.readTextFile(`${work.dir}/audit.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
  const call = lines.find((line) => line.tool === "execute_command");
  assert.equal(call?.protocol, "2026-07-28", JSON.stringify(lines));
});

Deno.test("Claude Code's ToolSearch finds execute_command first for terminal, shell, run a command, tmux", async () => {
  const claude = await clientCommand("claude");
  await using work = await clientWork("twclaude");
  const queries = ["terminal", "shell", "run a command", "tmux"];
  // One session: the model searches once per query, then ends the turn.
  // deno-lint-ignore no-explicit-any
  await using model = ModelStandIn.start(messages((body: any) => {
    const searched = body.messages.flatMap((m: { content: unknown }) =>
      // deno-lint-ignore no-explicit-any
      Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_use" && b.name === "ToolSearch") : []
    ).length;
    return searched < queries.length
      ? anthropicMessage({ tool: "ToolSearch", input: { query: queries[searched], max_results: 5 } })
      : anthropicMessage({ text: "done" });
  }));
  const env = claudeEnv(work, model);
  await addAsDocumented(claude, work, env);
  const ran = await runClient(claude, ["-p", "Find a terminal tool."], { env, cwd: `${work.dir}/project` });
  assert.equal(ran.code, 0, ran.stderr);
  const found: Record<string, string[]> = {};
  for (const { body } of model.to(/^\/v1\/messages/)) {
    const [call] = anthropicAnsweredCalls(body);
    const [result] = anthropicToolResults(body);
    if (call?.name !== "ToolSearch" || !Array.isArray(result?.content)) continue;
    // deno-lint-ignore no-explicit-any
    found[(call.input as { query: string }).query] = result.content.map((block: any) => block.tool_name);
  }
  for (const query of queries) assert.equal(found[query]?.[0], TOOL, `${query}: ${found[query]}`);
});

Deno.test("Claude Code: a policy ask in claude -p gets no answer and the command is not run (POLICY_DECLINED)", async () => {
  const claude = await clientCommand("claude");
  await using work = await clientWork("twclaude");
  await using model = ModelStandIn.start(runOnce);
  const env = claudeEnv(work, model);
  const cwd = `${work.dir}/project`;
  await addAsDocumented(claude, work, env, [
    "--policy",
    await askPolicy(work.dir),
    "--audit",
    `${work.dir}/audit.jsonl`,
  ]);
  const ran = await runClient(claude, ["-p", "Run the command.", "--allowedTools", "mcp__tmuxwright"], { env, cwd });
  assert.equal(ran.code, 0, ran.stderr);
  const result = executeResult(model);
  assert.ok(result);
  assert.equal(result.is_error, true);
  assert.match(
    resultText(result.content),
    /^POLICY_DECLINED: The person did not answer the command \(rule "printf \*"\)/,
  );
  // The server asked through Claude Code (it declared elicitation), which answered without an answer.
  const decisions = await policyDecisions(work.dir);
  assert.equal(decisions.length, 1, JSON.stringify(decisions));
  assert.equal(decisions[0].verdict, "ask");
  assert.equal(decisions[0].outcome, "cancelled");
  assert.match(decisions[0].answered_by, /^claude-code 2\./, JSON.stringify(decisions[0]));
});

function pick(result: Record<string, unknown>) {
  return { output: result.output, exit_code: result.exit_code };
}

Deno.test("Claude Code interactive: a policy ask is a form; Run it once, Accept, and the command runs", async () => {
  const claude = await clientCommand("claude");
  await using work = await clientWork("twclaude");
  await using model = ModelStandIn.start(runOnce);
  // (The TUI draws a no-break space after its ❯ marks: matched with \s.)
  const key = "sk-stand-in-0123456789abcdefghij";
  const cwd = `${work.dir}/project`;
  // A person who has used Claude Code here before: onboarding done, this key and this folder trusted.
  await Deno.writeTextFile(
    `${work.dir}/home/.claude.json`,
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  );
  const env = { ...claudeEnv(work, model), ANTHROPIC_API_KEY: key };
  await addAsDocumented(claude, work, env, [
    "--policy",
    await askPolicy(work.dir),
    "--audit",
    `${work.dir}/audit.jsonl`,
  ]);
  // The person's terminal: a tmux server of its own, 140x45.
  const ui = (...args: string[]) =>
    new Deno.Command("tmux", { args: ["-S", `${work.dir}/ui`, "-f", "/dev/null", ...args], env, clearEnv: true })
      .output();
  const screen = async () => new TextDecoder().decode((await ui("capture-pane", "-p", "-J")).stdout);
  const shows = (pattern: RegExp, timeoutMs = 60_000) => until(screen, (text) => pattern.test(text), timeoutMs);
  try {
    await ui("new-session", "-d", "-x", "140", "-y", "45", "-c", cwd, claude, "--allowedTools", "mcp__tmuxwright");
    // The TUI takes keys some time after it draws, and a key can land mid-redraw: each key is
    // pressed until the screen shows what it does.
    const press = (keys: string[][], then: RegExp) =>
      until(async () => {
        for (const key of keys) await ui("send-keys", ...key);
        return await shows(then, 2_000).then(() => true, () => false);
      }, (done) =>
        done, 60_000);
    await press([["C-u"], ["-l", "Run the command."]], /^❯\s+Run the command\.\s*$/m);
    await ui("send-keys", "Enter");
    const form = await shows(/Run this command\?/);
    assert.match(form, /MCP server “tmuxwright” requests your input/);
    // The command is in the lines the form shows, not behind "more lines".
    assert.match(form, /says ask\.\n\s+Command:\n\s+printf 'one\\ntwo\\n'; false\n/);
    await press([["Right"]], /◯ Run it once\n.*◯ Allow it for the rest of this MCP session\n.*◯ Refuse/);
    await press([["Enter"]], /✔ Run this command\?: Run it once\s*\n\s*❯\s+Accept/);
    await press([["Enter"]], /^❯\s*$/m); // Accept; the form closes
    const result = await until(() => executeResult(model), (r) => r !== undefined, 60_000);
    assert.notEqual(result!.is_error, true, resultText(result!.content));
    assert.deepEqual(pick(resultJson(resultText(result!.content))), RESULT);
    const [decision] = await policyDecisions(work.dir);
    assert.equal(decision.outcome, "once");
  } finally {
    await ui("kill-server");
  }
});
