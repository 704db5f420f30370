import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

// Found by the randomized stress: send_keys/paste_text with `wait: ["shell"]` right after
// create_pane, while the shell was still starting, fired on the shell's first prompt and returned
// an empty output before the input had even run. A start-up file that takes a moment shows it.

Deno.test("a shell wait right after create_pane waits for what the input caused, not the first prompt", async () => {
  await using server = await TestServer.start();
  const home = `${server.dir}/home`;
  await Deno.mkdir(home);
  await Deno.writeTextFile(`${home}/.bashrc`, "sleep 0.6\n");
  for (const tool of ["send_keys", "paste_text"]) {
    const pane = await server.call<{ pane_id: string }>("create_pane", { env: { HOME: home } });
    const sent = await server.call<{ trigger: string; output: string }>(tool, {
      pane_id: pane.pane_id,
      text: `echo typed-early-${tool}`,
      enter: true,
      wait: ["shell"],
      timeout_ms: 10_000,
    });
    assert.equal(sent.trigger, "shell");
    assert.match(sent.output, new RegExp(`^typed-early-${tool}$`, "m"), `${tool}: ${JSON.stringify(sent)}`);
  }
});
