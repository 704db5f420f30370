import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

type Turn = { output: string; prompt_seen: boolean; elapsed_ms: number };

Deno.test("run_in_repl against python3 -i: one line, a multi-line definition, then a call", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "python3 -i -q" });
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id }), (c) => c.text.endsWith(">>>"));
  const prompt = "^>>> $";

  const sum = await server.call<Turn>("run_in_repl", { pane_id, input: "1+1", prompt });
  assert.deepEqual(sum, { ...sum, output: "2", prompt_seen: true });

  const define = await server.call<Turn>("run_in_repl", {
    pane_id,
    input: "def double(x):\n    y = x * 2\n    return y\n\n",
    prompt,
  });
  assert.equal(define.prompt_seen, true);
  assert.equal(define.output, "");

  const call = await server.call<Turn>("run_in_repl", { pane_id, input: "print(double(21)); print('two')", prompt });
  assert.equal(call.output, "42\ntwo");

  const statements = await server.call<Turn>("run_in_repl", { pane_id, input: "print(1)\nprint(2)\n", prompt });
  assert.equal(statements.output, "1\n2");

  const slow = await server.call<Turn & { timed_out?: boolean }>("run_in_repl", {
    pane_id,
    input: "import time; time.sleep(5)",
    prompt,
    timeout_ms: 300,
  });
  assert.equal(slow.prompt_seen, false);
  assert.equal(slow.timed_out, true);
});
