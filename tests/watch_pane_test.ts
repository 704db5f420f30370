import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { shellPane } from "./helpers/shell_pane.ts";

type Watch = {
  trigger: string;
  fired: boolean;
  already?: boolean;
  exit_code?: number | null;
  line?: string;
  elapsed_ms: number;
  output: string;
  state: { alive: boolean; exit_code?: number | null; foreground_command: string | null; waiting_for_input: boolean };
};

async function sendAndWatch(server: TestServer, pane: string, text: string, triggers: string[]): Promise<Watch> {
  // Type only at the prompt, as a person would: interrupt what still runs, let the shell redraw.
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }),
    (s) => s.at_shell_prompt,
  );
  await server.call("send_keys", { pane_id: pane, text });
  return await server.call<Watch>("watch_pane", {
    pane_id: pane,
    triggers,
    timeout_ms: triggers.includes("input") ? 1_500 : 10_000,
  });
}

/**
 * Ctrl-C once `sleep 30` holds the terminal. Pressed in the instant between a builtin (`printf`)
 * and the fork of `sleep`, the shell still owns the terminal and a person's Ctrl-C is lost the same
 * way (bash takes it for the child's, and the child has not set up yet).
 */
async function interruptSleep(server: TestServer, pane: string): Promise<void> {
  await until(
    () => server.call<{ foreground_command: string }>("pane_state", { pane_id: pane }),
    (s) => s.foreground_command === "sleep",
  );
  await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
}

Deno.test("watch_pane fires exit when the pane's process ends", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {
    command: "sleep 0.4; echo bye; exit 3",
  });
  const result = await server.call<Watch>("watch_pane", { pane_id, triggers: ["exit"], timeout_ms: 10_000 });
  assert.equal(result.trigger, "exit");
  assert.equal(result.state.alive, false);
  // tmux 3.3a at times marks a pane dead without reaping it: the status is then unknown (null).
  assert.ok(result.state.exit_code === 3 || result.state.exit_code === null, JSON.stringify(result.state));
  assert.match(result.output, /bye/);
  assert.equal(result.already, undefined);
  // The state holds when the next call begins: it fires at once and says so.
  const again = await server.call<Watch>("watch_pane", { pane_id, triggers: ["exit"], timeout_ms: 10_000 });
  assert.deepEqual([again.trigger, again.already], ["exit", true]);
  assert.ok(again.elapsed_ms < 1000, `elapsed ${again.elapsed_ms}`);
});

Deno.test("watch_pane ends with PANE_GONE naming kill_pane when the pane is killed while it watches", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  await server.call("send_keys", { pane_id: pane, text: "sleep 30" });
  await until(
    () => server.call<{ foreground_command: string }>("pane_state", { pane_id: pane }),
    (s) => s.foreground_command === "sleep",
  );
  const watching = server.raw("watch_pane", { pane_id: pane, triggers: ["exit", "shell"], timeout_ms: 10_000 });
  // Both calls go through one tmux connection in order: the watch has found the pane before it is killed.
  await server.call("kill_pane", { pane_id: pane });
  const result = await watching;
  assert.equal(result.isError, true, result.text);
  assert.match(result.text, /^PANE_GONE: Pane %\d+ is gone while the call waited on it: a kill_pane call/);
});

Deno.test("watch_pane exit fires when the process start_process started exits; the pane's shell stays", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  await server.call("start_process", { command: "sh -c 'sleep 0.5; exit 4'", name: "ex" });
  const result = await server.call<Watch>("watch_pane", { pane_id: "ex", triggers: ["exit"], timeout_ms: 10_000 });
  assert.deepEqual([result.trigger, result.exit_code, result.already], ["exit", 4, undefined], JSON.stringify(result));
  assert.equal(result.state.alive, true); // the shell the process ran in is still there
  const again = await server.call<Watch>("watch_pane", { pane_id: "ex", triggers: ["exit"], timeout_ms: 10_000 });
  assert.deepEqual([again.trigger, again.exit_code, again.already], ["exit", 4, true]);
  assert.ok(again.elapsed_ms < 1000, `elapsed ${again.elapsed_ms}`);

  // A process interrupted with Ctrl-C: exit fires with 130, which the integrated shell's end mark
  // carries (a shell without integration drops the rest of the wrapper line, and the status).
  await server.call("start_process", { command: "sleep 30", pane_id: "ex" });
  const watching = server.call<Watch>("watch_pane", { pane_id: "ex", triggers: ["exit"], timeout_ms: 10_000 });
  await until(
    () => server.call<{ foreground_command: string }>("pane_state", { pane_id: "ex" }),
    (s) => s.foreground_command === "sleep",
  );
  await server.call("send_keys", { pane_id: "ex", keys: ["C-c"] });
  const interrupted = await watching;
  // The watch may begin observing before or after Ctrl-C lands, so `already` can be either here.
  assert.deepEqual([interrupted.trigger, interrupted.exit_code], ["exit", 130], JSON.stringify(interrupted));
});

Deno.test("watch_pane exit in a bash whose start-up file is slow and chatty", async () => {
  const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
  await Deno.writeTextFile(
    `${home}/.bashrc`,
    "for i in 1 2 3 4 5; do echo \"loading plugin $i\"; sleep 0.1; done\nPS1='[rc] \\w $ '\n",
  );
  try {
    await using server = await TestServer.start({ env: { HOME: home, SHELL: "/bin/bash" } });
    const started = await server.call<{ outcome: string }>("start_process", {
      command: "sh -c 'sleep 0.3; echo built; exit 7'",
      name: "build",
    });
    assert.equal(started.outcome, "started");
    const result = await server.call<Watch>("watch_pane", { pane_id: "build", triggers: ["exit"], timeout_ms: 15_000 });
    assert.deepEqual([result.trigger, result.exit_code, result.state.alive], ["exit", 7, true], JSON.stringify(result));
    assert.match(result.output, /built/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("watch_pane exit fires for a command execute_command left running after its timeout", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const run = await server.call<{ timed_out: boolean; interrupted: boolean }>("execute_command", {
    // Outlives the 2 s it is given to return to the prompt after Ctrl-C.
    command: `sh -c "trap '' INT; sleep 3; exit 5"`,
    timeout_ms: 300,
  });
  assert.deepEqual([run.timed_out, run.interrupted], [true, false]);
  const result = await server.call<Watch>("watch_pane", {
    pane_id: "default",
    triggers: ["exit"],
    timeout_ms: 10_000,
  });
  assert.deepEqual([result.trigger, result.exit_code], ["exit", 5], JSON.stringify(result));
  assert.equal(result.state.alive, true);
});

Deno.test("watch_pane shell and input fire at once when the state already holds, saying so", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  const shell = await server.call<Watch>("watch_pane", { pane_id: pane, triggers: ["shell"], timeout_ms: 10_000 });
  assert.deepEqual([shell.trigger, shell.already], ["shell", true]);
  assert.ok(shell.elapsed_ms < 1000, `elapsed ${shell.elapsed_ms}`);
  await server.call("send_keys", { pane_id: pane, text: "cat" });
  await until(
    () => server.call<{ waiting_for_input: boolean }>("pane_state", { pane_id: pane }),
    (s) => s.waiting_for_input,
  );
  const input = await server.call<Watch>("watch_pane", { pane_id: pane, triggers: ["input"], timeout_ms: 10_000 });
  assert.deepEqual([input.trigger, input.already], ["input", true]);
  assert.ok(input.elapsed_ms < 1000, `elapsed ${input.elapsed_ms}`);
  // A transition seen during the call is not "already".
  await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }),
    (s) => s.at_shell_prompt,
  );
  const later = await sendAndWatch(server, pane, "sleep 0.5", ["shell"]);
  assert.deepEqual([later.trigger, later.already], ["shell", undefined]);
});

Deno.test("watch_pane: idle after a burst, shell when the command returns, bell, pattern, error", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);

  const idle = await sendAndWatch(server, pane, "for i in 1 2 3 4 5; do echo line$i; sleep 0.1; done; sleep 30", [
    "idle:1",
    "shell",
  ]);
  assert.equal(idle.trigger, "idle:1");
  assert.ok(idle.elapsed_ms >= 1000 && idle.elapsed_ms < 4000, `elapsed ${idle.elapsed_ms}`);
  assert.match(idle.output, /line5/);
  await interruptSleep(server, pane);

  const shell = await sendAndWatch(server, pane, "sleep 0.5; echo finished", ["shell"]);
  assert.equal(shell.trigger, "shell");
  assert.ok(shell.elapsed_ms >= 400, `shell fired after ${shell.elapsed_ms} ms, before the command ended`);
  assert.match(shell.output, /finished/);
  assert.equal(shell.state.foreground_command, "bash");

  const bell = await sendAndWatch(server, pane, "sleep 0.3; printf '\\a'; sleep 30", ["bell", "idle:5"]);
  assert.equal(bell.trigger, "bell");
  await interruptSleep(server, pane);

  const pattern = await sendAndWatch(server, pane, "sleep 0.3; echo 'listening on port 8080'; sleep 30", [
    "exit",
    "pattern:port \\d+$",
  ]);
  assert.equal(pattern.trigger, "pattern:port \\d+$");
  assert.equal(pattern.line, "listening on port 8080");
  await interruptSleep(server, pane);

  await Deno.writeTextFile(`${server.dir}/boom.py`, "import time\ntime.sleep(.3)\nraise ValueError('boom')\n");
  const traceback = await sendAndWatch(server, pane, `python3 ${server.dir}/boom.py; sleep 30`, ["error", "idle:5"]);
  assert.equal(traceback.trigger, "error");
  assert.equal(traceback.line, "Traceback (most recent call last):");
  await interruptSleep(server, pane);

  const compiler = await sendAndWatch(server, pane, "sleep 0.3; echo 'main.c:3:1: error: expected ;'; sleep 30", [
    "error",
    "idle:5",
  ]);
  assert.equal(compiler.trigger, "error");
  assert.equal(compiler.line, "main.c:3:1: error: expected ;");
  await interruptSleep(server, pane);
});

Deno.test("watch_pane fires input for read -p, python input() and cat, not for sleep", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  for (const command of ["read -p 'name: ' x", `python3 -c 'input("pw: ")'`, "cat"]) {
    const result = await sendAndWatch(server, pane, `sleep 0.3; ${command}`, ["input", "exit"]);
    assert.equal(result.trigger, "input", `${command}: ${JSON.stringify(result)}`);
    assert.equal(result.state.waiting_for_input, true);
    assert.ok(result.elapsed_ms >= 250, `${command}: fired after ${result.elapsed_ms} ms, before it ran`);
    await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
  }
  const sleeping = await sendAndWatch(server, pane, "sleep 5", ["input"]);
  await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
  assert.equal(sleeping.trigger, "timeout");
});
