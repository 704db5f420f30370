import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

// run_in_repl without `prompt` is for an agent CLI; any other program keeps the REPL tool as it was.

Deno.test("run_in_repl without prompt on a program that is no agent CLI: INVALID_ARGUMENT naming it, nothing typed", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "python3 -i -q" });
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id }), (c) => c.text.endsWith(">>>"));
  const refused = await server.callError("run_in_repl", { pane_id, input: "1+1" });
  assert.match(
    refused,
    /^INVALID_ARGUMENT: Cannot run a turn in pane %\d+ without `prompt`: it runs "python3", not an agent CLI tmuxwright reads \(Claude Code, Codex CLI, Gemini CLI\)/,
  );
  assert.match(refused, /Give `prompt`/);
  assert.equal((await server.call<{ text: string }>("capture_pane", { pane_id })).text.trimEnd(), ">>>");
  // With prompt, the REPL tool as it was; a prompt without input is refused.
  const turn = await server.call<{ output: string; prompt_seen: boolean }>("run_in_repl", {
    pane_id,
    input: "6*7",
    prompt: "^>>> $",
  });
  assert.deepEqual([turn.output, turn.prompt_seen], ["42", true]);
  assert.match(
    await server.callError("run_in_repl", { pane_id, prompt: "^>>> $" }),
    /^INVALID_ARGUMENT: Cannot run a REPL turn without `input`/,
  );
});

Deno.test("run_in_repl without prompt in a shell at its prompt: INVALID_ARGUMENT at once (no agent is starting)", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
  await server.call("execute_command", { pane_id, command: "true" });
  const started = performance.now();
  assert.match(await server.callError("run_in_repl", { pane_id, input: "hello" }), /it runs "bash", not an agent CLI/);
  assert.ok(performance.now() - started < 2_000, "it waited for an agent CLI to start");
});
