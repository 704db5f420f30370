import assert from "node:assert/strict";
import { clientCommand } from "./helpers/agent_clients.ts";
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
import { ModelStandIn } from "./helpers/model_standin.ts";
import { responsesOutputs, responsesReply } from "./helpers/model_apis.ts";

// Codex CLI, pinned (helpers/agent_clients.ts), with the packed tmuxwright in config.toml exactly
// as docs/install.md says, driven by a scripted stand-in for the OpenAI Responses API (a
// model_providers entry with wire_api = "responses").
const NAMESPACE = "mcp__tmuxwright";

/** The model: call execute_command when it is offered and has not run yet, else end the turn. */
function runOnce(): ModelStandIn {
  return ModelStandIn.start(({ path, body }) => {
    if (!path.endsWith("/responses")) return null;
    const offered = toolNames(body).includes("execute_command");
    if (offered && responsesOutputs(body).length === 0) {
      return responsesReply({ call: "execute_command", namespace: NAMESPACE, arguments: { command: COMMAND } });
    }
    return responsesReply({ text: "done" });
  });
}

/** The tools of the tmuxwright namespace in a Responses request. */
// deno-lint-ignore no-explicit-any
function toolNames(body: any): string[] {
  // deno-lint-ignore no-explicit-any
  const namespace = (body?.tools ?? []).find((t: any) => t.type === "namespace" && t.name === NAMESPACE);
  // deno-lint-ignore no-explicit-any
  return (namespace?.tools ?? []).map((t: any) => t.name);
}

/**
 * CODEX_HOME/config.toml: the stand-in as the model provider, then the documented block with this
 * test's isolation as the server's args (`block` replaces it, for what the docs warn about).
 */
async function configure(work: ClientWork, model: ModelStandIn, extra: string[] = [], block?: string) {
  const documented = await installBlock("toml", /^\[mcp_servers\.tmuxwright\]\ncommand = "tmuxwright"\n/);
  const args = `args = ${JSON.stringify([...work.isolation, ...extra])}`;
  const server = (block ?? documented).replace(/^command = ".*"$/m, (line) => `${line}\n${args}`);
  await Deno.mkdir(`${work.dir}/home/.codex`, { recursive: true });
  await Deno.writeTextFile(
    `${work.dir}/home/.codex/config.toml`,
    [
      'model = "stand-in"',
      'model_provider = "standin"',
      "[model_providers.standin]",
      'name = "stand-in"',
      `base_url = "${model.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      "",
      server,
      "",
    ].join("\n"),
  );
  return work.env({ CODEX_HOME: `${work.dir}/home/.codex`, STANDIN_API_KEY: "stand-in" });
}

async function exec(work: ClientWork, env: Record<string, string>) {
  const codex = await clientCommand("codex");
  const ran = await runClient(codex, ["exec", "--skip-git-repo-check", "Run the command."], {
    env,
    cwd: `${work.dir}/project`,
  });
  assert.equal(ran.code, 0, ran.stderr);
  return ran;
}

/** The output Codex gave its model for the execute_command call (its text parts joined). */
function callOutput(model: ModelStandIn): string | undefined {
  for (const { body } of model.to(/\/responses$/)) {
    const [output] = responsesOutputs(body);
    if (!output) continue;
    const parts = Array.isArray(output.output) ? output.output : [{ text: output.output }];
    return parts.map((p: { text?: string }) => p.text ?? "").join("\n");
  }
  return undefined;
}

Deno.test("Codex CLI: configured as documented, execute_command's exact output reaches the model", async () => {
  await using work = await clientWork("twcodex");
  await using model = runOnce();
  const env = await configure(work, model);
  const codex = await clientCommand("codex");
  const listed = await runClient(codex, ["mcp", "list"], { env, cwd: `${work.dir}/project` });
  assert.match(listed.stdout, /^tmuxwright\s+tmuxwright\s.*enabled/m, listed.stdout + listed.stderr);
  await exec(work, env);
  const output = callOutput(model);
  assert.ok(output, JSON.stringify(model.requests.map((r) => r.path)));
  const result = resultJson(output);
  assert.deepEqual({ output: result.output, exit_code: result.exit_code }, RESULT);
});

Deno.test("Codex CLI with its MCP 2026-07-28 setting (docs/install.md): server/discover, then the same output", async () => {
  await using work = await clientWork("twcodex");
  await using model = runOnce();
  const documented = await installBlock("toml", /^\[mcp_servers\.tmuxwright\]\ncommand = "tmuxwright"\n/);
  const setting = await installBlock("toml", /^env = \{ CODEX_MCP_PROTOCOL_VERSION = "2026-07-28" \}$/);
  const block = `${documented}\n${setting}\n\n[features]\nmcp_2026_07_28 = true`;
  const env = await configure(work, model, ["--audit", `${work.dir}/audit.jsonl`], block);
  await exec(work, env);
  const output = callOutput(model);
  assert.ok(output, JSON.stringify(model.requests.map((r) => r.path)));
  const result = resultJson(output);
  assert.deepEqual({ output: result.output, exit_code: result.exit_code }, RESULT);
  // The audit line of a 2026 call names its revision; without the setting Codex opens with initialize (none).
  const lines = (await Deno.readTextFile(`${work.dir}/audit.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.find((line) => line.tool === "execute_command")?.protocol, "2026-07-28", JSON.stringify(lines));
});

Deno.test("Codex CLI: without default_tools_approval_mode, codex exec refuses every call (as the docs warn)", async () => {
  await using work = await clientWork("twcodex");
  await using model = runOnce();
  const documented = await installBlock("toml", /^\[mcp_servers\.tmuxwright\]\ncommand = "tmuxwright"\n/);
  const env = await configure(work, model, [], documented.replace(/^default_tools_approval_mode = .*\n?/m, ""));
  await exec(work, env);
  assert.match(callOutput(model) ?? "", /MCP tool call requires approval, but approval policy is never/);
});

Deno.test("Codex CLI: the first turn has tmuxwright's tools in 10 of 10 runs with two CPU burners running", async () => {
  const burners = [0, 1].map(() =>
    new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdout: "null", stderr: "null" }).spawn()
  );
  try {
    await using work = await clientWork("twcodex");
    const missing: number[] = [];
    for (let run = 0; run < 10; run++) {
      // A fresh start each time: Codex's own state and the server's (its tmux server stays).
      await Deno.remove(`${work.dir}/home/.codex`, { recursive: true }).catch(() => {});
      await Deno.remove(`${work.dir}/state`, { recursive: true }).catch(() => {});
      await using model = ModelStandIn.start(({ path }) =>
        path.endsWith("/responses") ? responsesReply({ text: "done" }) : null
      );
      await exec(work, await configure(work, model));
      const [first] = model.to(/\/responses$/);
      if (!toolNames(first?.body).includes("execute_command")) missing.push(run);
    }
    assert.deepEqual(missing, [], `runs whose first turn had no tmuxwright tools: ${missing}`);
  } finally {
    for (const burner of burners) burner.kill();
    await Promise.all(burners.map((b) => b.status));
  }
});

Deno.test("Codex CLI: codex exec declines a policy ask; the command is not run (POLICY_DECLINED)", async () => {
  await using work = await clientWork("twcodex");
  await using model = runOnce();
  const env = await configure(work, model, [
    "--policy",
    await askPolicy(work.dir),
    "--audit",
    `${work.dir}/audit.jsonl`,
  ]);
  await exec(work, env);
  assert.match(callOutput(model) ?? "", /POLICY_DECLINED: The person refused the command \(rule "printf \*"\)/);
  const decisions = await policyDecisions(work.dir);
  assert.equal(decisions.length, 1, JSON.stringify(decisions));
  assert.equal(decisions[0].outcome, "refused");
  assert.match(decisions[0].answered_by, /codex/i, JSON.stringify(decisions[0]));
});

Deno.test("Codex CLI: a server that starts slower than the first turn's grace is there only when required", async () => {
  await using work = await clientWork("twcodex");
  // tmuxwright behind two seconds of start-up, as on a loaded machine.
  const slow = `${work.dir}/slow-tmuxwright`;
  await Deno.writeTextFile(slow, `#!/bin/sh\nsleep 2\nexec tmuxwright "$@"\n`);
  await Deno.chmod(slow, 0o755);
  const documented = await installBlock("toml", /^\[mcp_servers\.tmuxwright\]\ncommand = "tmuxwright"\n/);
  const firstTurnTools = async (block: string) => {
    await Deno.remove(`${work.dir}/home/.codex`, { recursive: true }).catch(() => {});
    await using model = ModelStandIn.start(({ path }) =>
      path.endsWith("/responses") ? responsesReply({ text: "done" }) : null
    );
    await exec(work, await configure(work, model, [], block.replace('command = "tmuxwright"', `command = "${slow}"`)));
    return toolNames(model.to(/\/responses$/)[0]?.body).includes("execute_command");
  };
  assert.match(documented, /^required = true$/m);
  assert.equal(await firstTurnTools(documented.replace(/^required = true\n/m, "")), false);
  assert.equal(await firstTurnTools(documented), true);
});
