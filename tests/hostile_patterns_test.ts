import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH, shellPane } from "./helpers/shell_pane.ts";

// Patterns that take exponential time in a backtracking engine (JavaScript's RegExp) on a line
// that almost matches. Every tool must answer within its timeout and keep serving other calls.
const A40B = "a".repeat(40) + "b";

/** Median latency of `n` list_panes calls made one after another. */
async function listLatency(server: TestServer, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await server.client.callTool({ name: "list_panes", arguments: {} }, undefined, { timeout: 10_000 });
    times.push(performance.now() - started);
  }
  return times;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

Deno.test("wait_for_text ^(a+)+$ on 40 a's and a b: answers within its timeout, other calls keep their latency", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  const baseline = await listLatency(server, 15);

  const started = performance.now();
  const waiting = server.call<{ matched: boolean; timed_out?: boolean; elapsed_ms: number }>("wait_for_text", {
    pane_id: pane,
    pattern: "^(a+)+$",
    regex: true,
    timeout_ms: 3000,
  });
  // The line keeps coming for ~1.5 s, so the wait sees it whenever it starts listening.
  await server.call("send_keys", { pane_id: pane, text: `for i in $(seq 30); do echo ${A40B}; sleep 0.05; done` });
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: pane }), (c) => c.text.includes(A40B));
  const during = await listLatency(server, 15);
  const result = await waiting;
  const wall = performance.now() - started;

  console.log(
    `list_panes median ${median(baseline).toFixed(2)} ms before, ${median(during).toFixed(2)} ms during the wait; ` +
      `wait_for_text answered after ${Math.round(wall)} ms (timeout 3000)`,
  );
  assert.deepEqual([result.matched, result.timed_out], [false, true]);
  assert.ok(wall < 3000 + 3000, `wait_for_text answered after ${Math.round(wall)} ms (timeout 3000)`);
  const limit = Math.max(5 * median(baseline), 250);
  assert.ok(
    median(during) < limit && Math.max(...during) < 2000,
    `list_panes during the wait: median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms; ` +
      `baseline median ${median(baseline).toFixed(1)} ms`,
  );
});

Deno.test("start_process ready, watch_pane pattern:, search_panes, run_in_repl prompt: catastrophic patterns are linear", async () => {
  await using server = await TestServer.start();
  const x32 = "x".repeat(32);
  const ready = await server.call<{ outcome: string; elapsed_ms: number }>("start_process", {
    command: `for i in $(seq 20); do echo ${x32}; sleep 0.05; done; sleep 30`,
    name: "xs",
    ready: "^(x+x+)+y$",
    timeout_ms: 1500,
  });
  assert.equal(ready.outcome, "timeout");

  const pane = await shellPane(server);
  const watching = server.call<{ trigger: string }>("watch_pane", {
    pane_id: pane,
    triggers: ["pattern:^(a|aa)+$"],
    timeout_ms: 1500,
  });
  await server.call("send_keys", { pane_id: pane, text: `for i in $(seq 20); do echo ${A40B}; sleep 0.05; done` });
  assert.equal((await watching).trigger, "timeout");
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: pane }), (c) => c.text.includes(A40B));

  // search_panes: accepted now (no heuristic refusal), and a line it should find is found.
  const found = await server.call<{ panes_matched: number; matches: { lines: { text: string }[] }[] }>(
    "search_panes",
    { pattern: "^(\\w+\\s?)*$", regex: true },
  );
  assert.ok(found.matches.some((m) => m.lines.some((l) => l.text === A40B)), JSON.stringify(found));
  const none = await server.call<{ panes_matched: number }>("search_panes", { pattern: "^(a+)+$", regex: true });
  assert.equal(none.panes_matched, 0);

  // A REPL whose prompt is 28 a's and a space: `^(a+)+ $` is tested against every partial line,
  // including the echo `aaa… print(6*7)`, on which a backtracking engine takes ~2^28 steps.
  const repl = await server.call<{ pane_id: string }>("create_pane", {
    name: "py",
    command: `python3 -q -i -c "import sys; sys.ps1 = 'a' * 28 + ' '"`,
  });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: repl.pane_id }),
    (c) => c.text.includes("a".repeat(28)),
  );
  const turn = await server.call<{ output: string; prompt_seen: boolean }>("run_in_repl", {
    pane_id: "py",
    input: "print(6*7)",
    prompt: "^(a+)+ $",
    timeout_ms: 5000,
  });
  assert.deepEqual([turn.output, turn.prompt_seen], ["42", true]);
});

Deno.test("patterns the engine cannot compile are INVALID_ARGUMENT naming the pattern, in every tool", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  const cases: [string, Record<string, unknown>][] = [
    ["wait_for_text", { pane_id: pane, pattern: "(?<=a)b", regex: true, timeout_ms: 100 }],
    ["start_process", { command: PLAIN_BASH, name: "never", ready: "(a)\\1" }],
    ["watch_pane", { pane_id: pane, triggers: ["pattern:(?=x)x"], timeout_ms: 100 }],
    ["search_panes", { pattern: "(\\w)\\1", regex: true }],
    ["run_in_repl", { pane_id: pane, input: "true", prompt: "(?<!x)>>> ", timeout_ms: 100 }],
  ];
  for (const [tool, args] of cases) {
    const error = await server.callError(tool, args);
    assert.match(error, /^INVALID_ARGUMENT: Invalid .*(regex|pattern|prompt|trigger).*: /, `${tool}: ${error}`);
  }
  // Nothing was created for the refused start_process.
  const { panes } = await server.call<{ panes: { name: string | null }[] }>("list_panes");
  assert.ok(!panes.some((p) => p.name === "never"));
});

// A pattern the compiler accepts whose automaton gives up on a/b soup: the regex engine falls back
// to simulating every instruction at every character (tens of milliseconds per 4 KiB line), and
// "d" at each line's start passes the required-string check without ever letting a line match.
const COSTLY = "(?:a|ab|ba)(?:[ab]|aa){115}d";
const SOUP = `python3 -c "import random,sys
r = random.Random(7)
for i in range(150):
    sys.stdout.write('d' + ''.join(r.choice('ab') for _ in range(4095)) + '\\n')
sys.stdout.write('SOUP-DONE\\n')"`;

Deno.test("a costly accepted pattern on adversarial output: other calls stay responsive, and no line is lost", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  const baseline = await listLatency(server, 15);
  const started = performance.now();
  const watching = server.call<{ trigger: string; line?: string; elapsed_ms: number }>("watch_pane", {
    pane_id: pane,
    triggers: [`pattern:${COSTLY}`, "pattern:^SOUP-DONE$"],
    timeout_ms: 120_000,
  });
  await server.call("send_keys", { pane_id: pane, text: SOUP });
  // 150 lines of 4 KiB, each costing the engine tens of milliseconds: seconds of matching in all.
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
    (c) => c.text.includes("SOUP-DONE"),
  );
  // Calls made one after another for 3 s of the matching.
  const during: number[] = [];
  for (const until = performance.now() + 3000; performance.now() < until;) during.push(...await listLatency(server, 1));
  const result = await watching;
  console.log(
    `list_panes median ${median(baseline).toFixed(2)} ms before, ${median(during).toFixed(2)} ms ` +
      `(max ${Math.max(...during).toFixed(1)}) while the watch matched; watch answered after ` +
      `${Math.round(performance.now() - started)} ms`,
  );
  // Every soup line was matched (none matches) and the last line was still found, in order.
  assert.equal(result.trigger, "pattern:^SOUP-DONE$");
  // The matching lasts many seconds, so a blocked loop would hold one call for seconds; a single
  // slow call of a few hundred milliseconds is the shared machine, not the matcher.
  const limit = Math.max(5 * median(baseline), 250);
  assert.ok(
    median(during) < limit && Math.max(...during) < 1500,
    `list_panes while matching: median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms; ` +
      `baseline median ${median(baseline).toFixed(1)} ms`,
  );
});
