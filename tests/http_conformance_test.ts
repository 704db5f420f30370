import assert from "node:assert/strict";

Deno.test("the official MCP conformance suite passes against /mcp in both eras (baselines: fixture scenarios)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../scripts/conformance.ts", import.meta.url).pathname],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text.slice(-3000));
  const [era2025, era2026] = text.split("=== MCP 2026-07-28 (");
  assert.ok(era2026, text.slice(-3000));
  for (const part of [era2025, era2026]) assert.match(part, /Baseline check passed: all failures are expected/);
  const passed = (part: string, scenario: string) =>
    assert.match(part, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), scenario);
  for (
    const scenario of [
      "server-initialize",
      "ping",
      "tools-list",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
    ]
  ) {
    passed(era2025, scenario);
  }
  for (
    const scenario of [
      "tools-list",
      "tools-call-simple-text",
      "caching",
      "sep-2164-resource-not-found",
      "http-header-validation",
      "input-required-result-unsupported-methods",
      "dns-rebinding-protection",
    ]
  ) {
    passed(era2026, scenario);
  }
});
