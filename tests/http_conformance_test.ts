import assert from "node:assert/strict";

Deno.test("the official MCP conformance suite passes against /mcp (baseline: scenarios that need fixtures)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../scripts/conformance.ts", import.meta.url).pathname],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text.slice(-3000));
  assert.match(text, /Baseline check passed: all failures are expected/);
  for (
    const scenario of [
      "server-initialize",
      "ping",
      "tools-list",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
    ]
  ) {
    assert.match(text, new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`), scenario);
  }
});
