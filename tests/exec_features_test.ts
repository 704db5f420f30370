import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

type Exec = ExecResult;

async function bashPane(server: TestServer): Promise<string> {
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {
    command: "exec bash --norc --noprofile",
  });
  return pane_id;
}

Deno.test("execute_command: heredoc, multi-line text, a 64 KB command", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const heredoc = await server.call<Exec>("execute_command", {
    pane_id,
    command: "cat <<'EOF'\nline $1 `x`\n  'quoted' \"double\"\nEOF\necho done",
  });
  assertEquals(heredoc.output, "line $1 `x`\n  'quoted' \"double\"\ndone");
  const long = "x".repeat(64 * 1024);
  const big = await server.call<Exec>("execute_command", { pane_id, command: `echo ${long} | wc -c` });
  assertEquals(big.output.trim(), String(long.length + 1));
  assertEquals(big.exit_code, 0);
});

Deno.test("execute_command: seq 1 100000 complete and exact with a raised budget; beyond it, head and tail", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const seq = await server.call<Exec>("execute_command", { pane_id, command: "seq 1 100000", max_output: 800_000 });
  const expected = Array.from({ length: 100000 }, (_, i) => String(i + 1)).join("\n");
  assert(seq.output === expected, `output differs: ${seq.output.length} chars vs ${expected.length}`);
  assertEquals(seq.truncated, false);
  const huge = await server.call<Exec & { omitted: { lines: number } }>("execute_command", {
    pane_id,
    command: "seq 1 200000",
    max_output: 800_000,
  });
  assertEquals(huge.truncated, true);
  assert(huge.output.startsWith("1\n2\n") && huge.output.endsWith("\n199999\n200000"), "head and tail are kept");
  assert(huge.output.length <= 800_000);
  assertEquals(huge.output.split("\n").length - 1 + huge.omitted.lines, 200000);
});

Deno.test("execute_command: a carriage-return progress bar collapses to its final state", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const bar = await server.call<Exec>("execute_command", {
    pane_id,
    command: "for i in 10 50 100; do printf '\\r[%3d%%]' $i; done; printf '\\n'; printf '\\033[31mred\\033[0m\\n'",
  });
  assertEquals(bar.output, "[100%]\nred");
});

Deno.test("execute_command: ten concurrent calls on one pane each get their own output and status", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const calls = Array.from(
    { length: 10 },
    (_, i) => server.call<Exec>("execute_command", { pane_id, command: `echo call-${i}; sh -c 'exit ${i}'` }),
  );
  const results = await Promise.all(calls);
  results.forEach((r, i) =>
    assertEquals({ output: r.output, exit_code: r.exit_code }, { output: `call-${i}`, exit_code: i })
  );
});

Deno.test("execute_command: timeout interrupts with Ctrl-C and the pane stays usable", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const started = performance.now();
  const slow = await server.call<Exec>("execute_command", {
    pane_id,
    command: "echo before; sleep 30",
    timeout_ms: 500,
  });
  assert(performance.now() - started < 1500, `took ${performance.now() - started} ms`);
  assertEquals(slow.timed_out, true);
  assertEquals(slow.output, "before");
  assertEquals(slow.interrupted, true);
  const after = await server.call<Exec>("execute_command", { pane_id, command: "echo after" });
  assertEquals({ output: after.output, exit_code: after.exit_code }, { output: "after", exit_code: 0 });
  const clamped = await server.call<Exec>("execute_command", { pane_id, command: "true", timeout_ms: 10_000_000 });
  assertEquals({ used: clamped.timeout_ms, clamped: clamped.timeout_clamped }, { used: 600_000, clamped: true });
});

Deno.test("execute_command: a command reading stdin gets no wrapper text", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  // cat would print any wrapper line typed after the command; it waits for the terminal with nothing read.
  const cat = await server.call<Exec & { outcome: string }>("execute_command", { pane_id, command: "cat" });
  assertEquals(cat.output, "");
  assertEquals([cat.outcome, cat.timed_out], ["input", false]);
  await server.call("send_keys", { pane_id, keys: ["C-d"], wait: ["shell"] });
  const read = await server.call<Exec>("execute_command", {
    pane_id,
    command: 'read -t 0.3 x; echo "got[$x]"',
  });
  assertEquals(read.output, "got[]");
});

Deno.test("execute_command: a pane busy with a program that is not a shell fails fast", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "exec sleep 30" });
  const started = performance.now();
  const error = await server.callError("execute_command", { pane_id, command: "echo hi" });
  assert(/PANE_BUSY/.test(error) && /sleep/.test(error), error);
  assert(performance.now() - started < 1500);
});

Deno.test("execute_command: cancelling the request interrupts the command", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const controller = new AbortController();
  const call = server.client.callTool(
    { name: "execute_command", arguments: { pane_id, command: "sleep 30" } },
    undefined,
    {
      signal: controller.signal,
    },
  );
  // Wait until sleep holds the terminal, then cancel.
  const { until } = await import("./helpers/harness.ts");
  await until(
    () => server.tmux("display-message", "-p", "-t", pane_id, "#{pane_current_command}"),
    (r) => r.stdout.trim() === "sleep",
  );
  controller.abort();
  await assert.rejects(call);
  await until(
    () => server.tmux("display-message", "-p", "-t", pane_id, "#{pane_current_command}"),
    (r) => r.stdout.trim() === "bash",
    1500,
  );
  const after = await server.call<Exec>("execute_command", { pane_id, command: "echo after" });
  assertEquals(after.output, "after");
});

Deno.test("execute_command: sends progress notifications while a long command runs", async () => {
  await using server = await TestServer.start();
  const pane_id = await bashPane(server);
  const seen: number[] = [];
  await server.client.callTool({ name: "execute_command", arguments: { pane_id, command: "sleep 2.3" } }, undefined, {
    onprogress: (p: { progress: number }) => seen.push(p.progress),
    timeout: 30_000,
  });
  assert(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);
  assert(seen.every((v, i) => i === 0 || v > seen[i - 1]), "progress increases");
});
