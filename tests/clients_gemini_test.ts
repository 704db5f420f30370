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
import { geminiFunctionResponses, geminiReply } from "./helpers/model_apis.ts";

// Gemini CLI, pinned (helpers/agent_clients.ts), with the packed tmuxwright in settings.json
// exactly as docs/install.md says, driven by a scripted stand-in for the Gemini API
// (generateContent / streamGenerateContent, through GOOGLE_GEMINI_BASE_URL).
const TOOL = "mcp_tmuxwright_execute_command";

/** The model: call execute_command when it is offered and has not run yet, else answer. */
function runOnce(): ModelStandIn {
  return ModelStandIn.start(({ path, body }) => {
    if (!path.startsWith("/v1beta/models/")) return null;
    if (path.includes(":countTokens")) return Response.json({ totalTokens: 10 });
    if (declared(body).includes(TOOL) && geminiFunctionResponses(body).length === 0) {
      return geminiReply(path, body, { call: TOOL, args: { command: COMMAND } });
    }
    return geminiReply(path, body, { text: "done" });
  });
}

/** The function declarations a request offers the model. */
// deno-lint-ignore no-explicit-any
function declared(body: any): string[] {
  // deno-lint-ignore no-explicit-any
  return (body?.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? []).map((d: any) => d.name);
}

/**
 * ~/.gemini/settings.json: the documented mcpServers entry with this test's isolation as its args
 * (`change` edits it, for what the docs warn about), and the API key as the way to sign in.
 */
async function configure(work: ClientWork, model: ModelStandIn, extra: string[] = [], change = (_: object) => {}) {
  const documented = JSON.parse(await installBlock("json", /"command": "tmuxwright",\n\s*"trust": true/));
  const server = documented.mcpServers.tmuxwright;
  server.args = [...work.isolation, ...extra];
  change(server);
  await Deno.mkdir(`${work.dir}/home/.gemini`, { recursive: true });
  const settings = { ...documented, security: { auth: { selectedType: "gemini-api-key" } } };
  await Deno.writeTextFile(`${work.dir}/home/.gemini/settings.json`, JSON.stringify(settings, null, 2));
  // A headless run in a folder trusted as the docs say.
  return work.env({
    GEMINI_API_KEY: "stand-in",
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  });
}

async function prompt(work: ClientWork, env: Record<string, string>) {
  const gemini = await clientCommand("gemini");
  // A model named: no routing requests to the stand-in.
  const ran = await runClient(gemini, ["-p", "Run the command.", "-m", "gemini-2.5-flash"], {
    env,
    cwd: `${work.dir}/project`,
  });
  assert.equal(ran.code, 0, ran.stderr);
  return ran;
}

/** What Gemini CLI gave its model for the execute_command call. */
function callResponse(model: ModelStandIn): Record<string, unknown> | undefined {
  for (const { body } of model.to(/^\/v1beta\/models\//)) {
    const [response] = geminiFunctionResponses(body);
    if (response) return response.response as Record<string, unknown>;
  }
  return undefined;
}

Deno.test("Gemini CLI: configured as documented, connected, and execute_command's exact output reaches the model", async () => {
  await using work = await clientWork("twgemini");
  await using model = runOnce();
  const env = await configure(work, model);
  const gemini = await clientCommand("gemini");
  const listed = await runClient(gemini, ["mcp", "list"], { env, cwd: `${work.dir}/project` });
  assert.match(listed.stdout + listed.stderr, /tmuxwright: tmuxwright .*- Connected/);
  await prompt(work, env);
  const response = callResponse(model);
  assert.ok(response, JSON.stringify(model.requests.map((r) => r.path)));
  // Wrapped as untrusted context around the result's JSON text.
  const output = String(response.output);
  assert.match(output, /^<untrusted_context>\n\{.*\}\n<\/untrusted_context>$/s);
  const result = resultJson(output);
  assert.deepEqual({ output: result.output, exit_code: result.exit_code }, RESULT);
});

Deno.test("Gemini CLI: without trust, gemini -p offers the model none of the server's tools (as the docs warn)", async () => {
  await using work = await clientWork("twgemini");
  await using model = runOnce();
  const env = await configure(work, model, [], (server) => delete (server as { trust?: boolean }).trust);
  await prompt(work, env);
  const [first] = model.to(/:streamGenerateContent/);
  assert.ok(first);
  assert.deepEqual(declared(first.body).filter((name) => name.startsWith("mcp_tmuxwright_")), []);
  assert.equal(callResponse(model), undefined);
});

Deno.test("Gemini CLI: no elicitation, so a policy ask is not run and says why (POLICY_ASK_UNAVAILABLE)", async () => {
  await using work = await clientWork("twgemini");
  await using model = runOnce();
  const env = await configure(work, model, [
    "--policy",
    await askPolicy(work.dir),
    "--audit",
    `${work.dir}/audit.jsonl`,
  ]);
  await prompt(work, env);
  // The server's error, quoted inside Gemini CLI's own error text.
  assert.match(
    String(callResponse(model)?.error),
    /POLICY_ASK_UNAVAILABLE: The command policy asks a person before this command runs \(rule \\+"printf \*\\+": an ask rule matches\), and this client cannot ask \(no MCP elicitation\)/,
  );
  const decisions = await policyDecisions(work.dir);
  assert.equal(decisions.length, 1, JSON.stringify(decisions));
  assert.equal(decisions[0].verdict, "ask");
  assert.notEqual(decisions[0].outcome, "once");
});
