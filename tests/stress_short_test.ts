import assert from "node:assert/strict";

// The randomized stress (scripts/stress/), briefly and with a fixed seed so a failure can be run
// again: HTTP and stdio sessions side by side on one tmux server, the lab host over OpenSSH, and
// faults (tmux killed, the ssh link cut, clients dropping mid-call, the HTTP server SIGKILLed and
// restarted). Every answer and the end state are checked; the output names each violation.

const MAIN = new URL("../scripts/stress/main.ts", import.meta.url).pathname;

Deno.test({
  name: "randomized stress, 60 s, seed 20261125: every answer exact or coded, in time; nothing left behind",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const out = await new Deno.Command("deno", {
      args: [
        ...["run", "-A", MAIN, "--seed", "20261125", "--seconds", "60", "--http", "4", "--stdio", "1"],
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text.split("\n").filter((l) => /VIOLATION|FAIL|PASS|calls in/.test(l)).join("\n"));
    assert.match(text, /PASS seed 20261125/);
  },
});

Deno.test({
  name: "randomized stress in MCP 2026 (HTTP agents by workspace handle), 40 s, seed 20261128: the same checks",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const out = await new Deno.Command("deno", {
      args: [
        ...["run", "-A", MAIN, "--seed", "20261128", "--seconds", "40", "--http", "3", "--stdio", "1", "--era", "2026"],
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text.split("\n").filter((l) => /VIOLATION|FAIL|PASS|calls in/.test(l)).join("\n"));
    assert.match(text, /HTTP \(MCP 2026\)/);
    assert.match(text, /PASS seed 20261128/);
  },
});
