import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

// Found by the randomized stress: a REPL turn sent the moment its pane was created (python still
// starting) ended at once with no output, or returned the REPL's redrawn input line as output.

Deno.test("run_in_repl right after create_pane waits for the REPL's prompt and returns only the output", async () => {
  await using server = await TestServer.start();
  for (let i = 0; i < 4; i++) {
    const pane = await server.call<{ pane_id: string }>("create_pane", { command: "python3 -q" });
    const turn = await server.call<{ output: string; prompt_seen: boolean }>("run_in_repl", {
      pane_id: pane.pane_id,
      input: `print(${i + 6}*7)`,
      prompt: "^>>> $",
      timeout_ms: 15_000,
    });
    assert.equal(turn.output, String((i + 6) * 7), `turn ${i}: ${JSON.stringify(turn)}`);
    assert.equal(turn.prompt_seen, true);
  }
});
