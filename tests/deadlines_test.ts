import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * Every call answers by its deadline (src/mcp/deadlines.ts): a call with timeout_ms by then + 1 s,
 * others by their bound, with TIMEOUT naming the slow step; one pane's slow shell holds no other.
 */

/** A home whose bash start-up file sleeps `seconds` when the pane's environment has SLOW set. */
async function slowHome(seconds: number): Promise<string> {
  const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
  await Deno.writeTextFile(`${home}/.bashrc`, `[ -n "\${SLOW-}" ] && sleep ${seconds}\n`);
  return home;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

Deno.test("execute_command answers by timeout_ms + 1 s while the pane's shell still starts: TIMEOUT, nothing typed", async () => {
  const home = await slowHome(6);
  try {
    await using server = await TestServer.start({ env: { HOME: home, SHELL: "/bin/bash" } });
    const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { env: { SLOW: "1" } });
    const { value: error, ms } = await timed(() =>
      server.callError("execute_command", { pane_id, command: "echo hi", timeout_ms: 1_500 })
    );
    assert.ok(ms < 2_500, `answered after ${Math.round(ms)} ms`);
    assert.match(error, /^TIMEOUT: .*pane %\d+ .*start-up files .*nothing was typed/);
    // Once the shell is up, the same pane takes commands; the first one was never typed.
    const ran = await server.call<ExecResult>("execute_command", { pane_id, command: "echo hi", timeout_ms: 20_000 });
    assert.equal(ran.output, "hi");
    const log = await server.call<{ content: string }>("read_logs", { pane_id, lines: 50 });
    assert.equal(log.content.split("echo hi").length - 1, 1, log.content);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a pane whose shell starts slowly holds no other pane's calls", async () => {
  const home = await slowHome(8);
  try {
    await using server = await TestServer.start({ env: { HOME: home, SHELL: "/bin/bash" } });
    const slow = await server.call<{ pane_id: string }>("create_pane", { env: { SLOW: "1" } });
    const waiting = server.call<ExecResult>("execute_command", {
      pane_id: slow.pane_id,
      command: "echo slow",
      timeout_ms: 20_000,
    });
    const { value: fast, ms } = await timed(async () => {
      const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
      return await server.call<ExecResult>("execute_command", { pane_id, command: "echo fast" });
    });
    assert.equal(fast.output, "fast");
    assert.ok(ms < 4_000, `the other pane's calls took ${Math.round(ms)} ms behind the slow shell`);
    assert.equal((await waiting).output, "slow");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("calls answer by their deadline while tmux answers nothing: TIMEOUT saying so", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
  const tmuxPid = Number((await server.tmux("display-message", "-p", "#{pid}")).stdout.trim());
  Deno.kill(tmuxPid, "SIGSTOP");
  try {
    const waited = await timed(() => server.callError("wait_for_text", { pane_id, pattern: "x", timeout_ms: 1_000 }));
    assert.ok(waited.ms < 2_000, `wait_for_text answered after ${Math.round(waited.ms)} ms`);
    assert.match(waited.value, /^TIMEOUT: .*deadline \(2000 ms.*tmux has left a command unanswered/);
    // A call without a timeout: its bound (a kill's is 10 s, before the connection's own stall limit of 15 s).
    const killed = await timed(() => server.callError("kill_pane", { pane_id }));
    assert.ok(killed.ms < 10_000, `kill_pane answered after ${Math.round(killed.ms)} ms`);
    assert.match(killed.value, /^TIMEOUT: .*deadline \(10000 ms.*tmux has left a command unanswered/);
  } finally {
    Deno.kill(tmuxPid, "SIGCONT");
  }
  // tmux is back: calls are served again (the kill it was sent went on: the pane is gone).
  const ran = await server.call<ExecResult>("execute_command", { command: "echo back", timeout_ms: 20_000 });
  assert.equal(ran.output, "back");
});
