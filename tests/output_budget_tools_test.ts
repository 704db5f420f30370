import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

/**
 * Every tool that returns output keeps within a budget (8 KiB / 200 lines by default, max_output
 * per call): head and tail, one marker in place of the middle naming the call that returns it,
 * and the structured fields truncated, total_lines, total_bytes, omitted. Nothing is lost.
 */
type Omitted = { lines: number; bytes: number; from_byte?: number; to_byte?: number };
type Budgeted = { output: string; truncated: boolean; total_lines?: number; total_bytes?: number; omitted?: Omitted };
type Chunk = { content: string; next_byte: number; spool?: boolean };

const seqLines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** The read_logs call a marker names, parsed from the marker text. */
function markedCall(text: string): { name: string; args: Record<string, unknown> } {
  const match = /\[… .* omitted; (\w+) (\{.*\}) returns them/.exec(text);
  assert.ok(match, `no marker in ${text.slice(0, 300)}`);
  return { name: match[1], args: JSON.parse(match[2]) };
}

Deno.test("execute_command: 3,000 lines come back as head, marker and tail; read_logs returns the middle exactly", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  const small = await server.call<Budgeted>("execute_command", { command: "echo hi" });
  assert.deepEqual([small.output, small.truncated, small.total_lines], ["hi", false, undefined]);

  const { text: raw } = await server.raw("execute_command", { command: "seq 1 3000" });
  assert.ok(raw.length < 9_000, `result is ${raw.length} characters`);
  const big = JSON.parse(raw) as Budgeted & { pane_id: string };
  const lines = big.output.split("\n");
  assert.deepEqual([lines[0], lines.at(-1), big.truncated, big.total_lines], ["1", "3000", true, 3000]);
  const kept = lines.filter((l) => /^\d+$/.test(l));
  assert.equal(kept.length + big.omitted!.lines, 3000);
  const call = markedCall(big.output);
  assert.deepEqual(call, {
    name: "read_logs",
    args: { pane_id: big.pane_id, from_byte: big.omitted!.from_byte, max_bytes: big.omitted!.bytes },
  });
  const middle = await server.call<Chunk>("read_logs", call.args);
  const first = Number(kept[kept.length / 2 - 1]) + 1;
  assert.equal(middle.content, seqLines(first, first + big.omitted!.lines - 1).map((l) => l + "\r\n").join(""));
  assert.equal(middle.next_byte, big.omitted!.to_byte);

  const none = await server.call<Budgeted>("execute_command", { command: "seq 1 3000", max_output: 0 });
  assert.deepEqual([none.output.startsWith("[… 3000 lines"), none.omitted?.lines], [true, 3000]);
  const all = await server.call<Budgeted>("execute_command", { command: "seq 1 3000", max_output: 20_000 });
  assert.deepEqual([all.truncated, all.output], [false, seqLines(1, 3000).join("\n")]);
});

Deno.test("execute_command in a pane without a log: the omitted middle is read back from the spool", async () => {
  await using server = await TestServer.start();
  await server.call("list_panes");
  const made = await server.tmux("new-session", "-d", "-s", "users", "-P", "-F", "#{pane_id}", "bash --norc");
  const pane_id = made.stdout.trim();
  const big = await server.call<Budgeted>("execute_command", { pane_id, command: "seq 1 3000" });
  assert.equal(big.truncated, true);
  const call = markedCall(big.output);
  const middle = await server.call<Chunk>("read_logs", call.args);
  assert.equal(middle.spool, true);
  const lines = middle.content.split("\r\n").slice(0, -1);
  assert.equal(lines.length, big.omitted!.lines);
  assert.deepEqual([lines[0], lines.at(-1)], ["101", "2900"]);
});

Deno.test("read_logs and capture_pane keep within the budget and name the call that returns the rest", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  await server.call("execute_command", { command: "seq 1 3000", max_output: 0 });
  const log = await server.call<{ content: string; truncated: boolean; omitted: Omitted; pane_id: string }>(
    "read_logs",
    { pane_id: "default", lines: 2000 },
  );
  assert.equal(log.truncated, true);
  const middle = await server.call<Chunk>("read_logs", markedCall(log.content).args);
  const shown = log.content.split("\n").filter((l) => !l.startsWith("[…"));
  assert.equal(shown.length + middle.content.split("\r\n").length - 1, 2000);

  const screen = await server.call<{ text: string; truncated: boolean; omitted: Omitted }>("capture_pane", {
    pane_id: "default",
    lines: 2000,
  });
  assert.equal(screen.truncated, true);
  const call = markedCall(screen.text);
  assert.equal(call.name, "capture_pane");
  const whole = await server.call<{ text: string; truncated: boolean }>("capture_pane", call.args);
  assert.equal(whole.text.split("\n").length, 2000);
  assert.ok(whole.text.split("\n").includes("1500"));
});

Deno.test("start_process and stop_process keep last_lines within the budget", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const wide = `python3 -c "print(*['x'*3000 for _ in range(10)], sep='\\n'); print('READY')"; sleep 30`;
  const started = await server.call<{ pane_id: string; outcome: string }>("start_process", {
    command: wide,
    ready: "^READY$",
  });
  assert.equal(started.outcome, "ready");
  const stopped = await server.call<{ last_lines: string[]; last_lines_truncated?: boolean }>("stop_process", {
    pane_id: started.pane_id,
  });
  assert.equal(stopped.last_lines_truncated, true);
  assert.ok(JSON.stringify(stopped.last_lines).length <= 8_500, `${JSON.stringify(stopped.last_lines).length}`);
  const marker = stopped.last_lines.find((l) => l.startsWith("[…"))!;
  const all = await server.call<{ content: string }>("read_logs", markedCall(marker).args);
  assert.ok(all.content.split("\n").filter((l) => l === "x".repeat(3000)).length === 10, all.content.slice(0, 100));
});

Deno.test("run_in_repl keeps a long answer within the budget; the marked read_logs holds it all", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const repl = await server.call<{ pane_id: string }>("start_process", { command: "python3 -q", ready: "^>>> $" });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: repl.pane_id }),
    (c) => c.text.endsWith(">>>"),
  );
  const turn = await server.call<Budgeted & { prompt_seen: boolean }>("run_in_repl", {
    pane_id: repl.pane_id,
    input: "for i in range(3000): print(i)\n",
    prompt: "^>>> $",
  });
  assert.deepEqual([turn.prompt_seen, turn.truncated], [true, true]);
  const lines = turn.output.split("\n");
  assert.deepEqual([lines[0], lines.at(-1)], ["0", "2999"]);
  const whole = await server.call<Chunk>("read_logs", markedCall(turn.output).args);
  assert.ok(whole.content.includes("\r\n1500\r\n"));
});
