import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { type Armed, armWaits, type InFlight } from "./helpers/pane_end_matrix.ts";

/**
 * A wait ends the moment its pane can no longer answer: every kind of wait, in flight when its
 * pane is killed by a call, killed from outside, or its program exits, ends within 2 s (each
 * asked for 30 s) and says why. The tmux server's death is in wait_pane_end_server_test.ts.
 */
const WITHIN_MS = 2_000;

async function paneIdOf(server: TestServer, ref: string): Promise<string> {
  if (ref.startsWith("%")) return ref;
  const listed = await server.call<{ panes: { pane_id: string; name: string | null }[] }>("list_panes");
  return listed.panes.find((p) => p.name === ref)!.pane_id;
}

async function settled(waits: InFlight[], since: number) {
  return await Promise.all(waits.map(async (w) => {
    const r = await w.done;
    return { ...w, ...r, after: Math.round(r.at - since) };
  }));
}

function assertQuick(results: { wait: string; after: number; text: string }[], limit: number): void {
  for (const r of results) assert.ok(r.after < limit, `${r.wait} ended ${r.after} ms after the event: ${r.text}`);
}

/** Kills every pane of the set, by a call or from outside, once the waits are in flight. */
async function killAll(server: TestServer, armed: Armed, outside: boolean): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const ids = await Promise.all(armed.panes.map((ref) => paneIdOf(server, ref)));
  const at = performance.now();
  await Promise.all(
    ids.map((pane_id) => outside ? server.tmux("kill-pane", "-t", pane_id) : server.call("kill_pane", { pane_id })),
  );
  return at;
}

Deno.test("every wait ends within 2 s with PANE_GONE when its pane is killed by kill_pane or from outside", async () => {
  await using server = await TestServer.start();
  for (const outside of [false, true]) {
    const armed = await armWaits(server, false);
    const at = await killAll(server, armed, outside);
    const results = await settled(armed.waits, at);
    assertQuick(results, WITHIN_MS);
    for (const r of results) {
      assert.equal(r.isError, true, `${r.wait}: ${r.text}`);
      const who = outside ? /closed outside tmuxwright/ : /a kill_pane call of this server removed it/;
      assert.match(r.text, /^PANE_GONE: Pane %\d+ is gone while the call waited on it: /, `${r.wait}: ${r.text}`);
      assert.match(r.text, who, `${r.wait}: ${r.text}`);
    }
  }
});

Deno.test("every wait ends within 2 s of its pane's program exiting: trigger exit, exit_code 3, pane_dead, last lines", async () => {
  await using server = await TestServer.start();
  const armed = await armWaits(server, true);
  const exitsAt = performance.now() + 2_000; // each program sleeps 2 s, then prints and exits
  const results = await settled(armed.waits, exitsAt);
  assertQuick(results, WITHIN_MS);
  const by = Object.fromEntries(results.map((r) => [r.wait, r.isError ? r.text : JSON.parse(r.text)]));
  for (const wait of ["wait_for_text", "wait_for_text cursor"]) {
    const r = by[wait];
    assert.deepEqual([r.matched, r.trigger, r.exit_code, r.pane_dead], [false, "exit", 3, true], JSON.stringify(r));
    assert.ok(r.last_lines.includes("last-words"), JSON.stringify(r));
  }
  for (const wait of ["watch_pane", "send_keys wait", "paste_text wait"]) {
    const r = by[wait];
    assert.deepEqual([r.trigger, r.exit_code, r.pane_dead], ["exit", 3, true], `${wait}: ${JSON.stringify(r)}`);
    assert.ok(r.last_lines.includes("last-words"), `${wait}: ${JSON.stringify(r)}`);
  }
  assert.deepEqual([by.execute_command.exit_code, by.execute_command.shell_exited], [3, true]);
  assert.match(by.execute_command.output, /last-words/);
  assert.deepEqual([by.run_in_repl.outcome, by.run_in_repl.exit_code, by.run_in_repl.pane_dead], ["exited", 3, true]);
  assert.ok(by.run_in_repl.last_lines.includes("last-words"), JSON.stringify(by.run_in_repl));
  const started = by["start_process ready"];
  assert.deepEqual(
    [started.outcome, started.exit_code, started.pane_dead],
    ["exited", 3, true],
    JSON.stringify(started),
  );
  assert.ok(started.last_lines.includes("last-words"), JSON.stringify(started));

  // Nothing lost: the cursor taken before still reads what the pane wrote before it ended.
  const since = await server.call<{ text: string }>("capture_since", { cursor: armed.cursor });
  assert.match(since.text, /^last-words$/m);

  // A wait started on a pane already dead answers at once, saying so.
  const [shell] = armed.panes;
  const again = await server.call<Record<string, unknown>>("wait_for_text", {
    pane_id: shell,
    pattern: "never-matches",
    timeout_ms: 30_000,
  });
  assert.deepEqual([again.trigger, again.exit_code, again.already, again.pane_dead], ["exit", 3, true, true]);
  assert.ok((again.elapsed_ms as number) < WITHIN_MS, JSON.stringify(again));
  const watched = await server.call<Record<string, unknown>>("watch_pane", {
    pane_id: shell,
    triggers: ["pattern:never-matches"],
    timeout_ms: 30_000,
  });
  assert.deepEqual([watched.trigger, watched.exit_code, watched.already], ["exit", 3, true], JSON.stringify(watched));
  await until(() => server.call<{ alive: boolean }>("pane_state", { pane_id: shell }), (s) => !s.alive);
});

Deno.test("PANE_GONE names another tmuxwright server whose kill_pane removed the pane", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
  await server.call("execute_command", { pane_id, command: "true" });
  const waiting = server.raw("wait_for_text", { pane_id, pattern: "never-matches", timeout_ms: 30_000 });
  const other = await TestServer.start({ dir: server.dir, args: ["--safety", "destructive"] });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.call("kill_pane", { pane_id });
    const at = performance.now();
    const result = await waiting;
    assert.ok(performance.now() - at < WITHIN_MS, result.text);
    assert.match(
      result.text,
      /^PANE_GONE: Pane %\d+ is gone while the call waited on it: a kill_pane call of another tmuxwright server \(process \d+\) removed it/,
    );
  } finally {
    await other.close(false);
  }
});
