import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

interface Start {
  pane_id: string;
  name: string | null;
  outcome: string;
  matched_line?: string;
  exit_code?: number | null;
  last_lines?: string[];
}
interface Stop {
  was_running: boolean;
  stopped: boolean;
  exit_code: number | null;
  last_lines: string[];
  still_running?: { command: string };
}

// Processes run in a shell without start-up files (dash), so the tests do not depend on rc files.
const ENV = { SHELL: "/bin/dash" };

Deno.test("start_process: returns ready when the line appears, then stop_process ends it with Ctrl-C", async () => {
  await using server = await TestServer.start({ env: ENV });
  const started = await server.call<Start>("start_process", {
    command: "echo starting; sleep 0.3; echo 'server READY on 8080'; sleep 30",
    name: "server",
    ready: "READY",
    timeout_ms: 5000,
  });
  assertEquals({ outcome: started.outcome, line: started.matched_line, name: started.name }, {
    outcome: "ready",
    line: "server READY on 8080",
    name: "server",
  });
  const stop = await server.call<Stop>("stop_process", { pane_id: "server" });
  assertEquals({ was: stop.was_running, stopped: stop.stopped, code: stop.exit_code }, {
    was: true,
    stopped: true,
    code: 130,
  });
  assertEquals(stop.last_lines.slice(0, 2), ["starting", "server READY on 8080"]);
  // Start/stop again in the same pane: its log stays whole.
  const again = await server.call<Start>("start_process", {
    command: "echo second; sleep 30",
    pane_id: "server",
    ready: "second",
  });
  assertEquals(again.outcome, "ready");
  assertEquals((await server.call<Stop>("stop_process", { pane_id: "server", signal: "SIGTERM" })).exit_code, 143);
  const log = await server.call<{ text: string }>("capture_pane", { pane_id: "server", lines: 50 });
  assert(log.text.includes("server READY on 8080") && log.text.includes("second"), log.text);
});

Deno.test("stop_process right after ready, while the shell runs builtins between two programs", async () => {
  await using server = await TestServer.start({ env: ENV });
  // After READY the shell itself holds the terminal for ~60 ms (a builtin loop) before `sleep` starts:
  // tmux then shows the shell in the foreground although the command has not ended.
  const busy = "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done";
  for (const signal of ["SIGTERM", "SIGINT"]) {
    const started = await server.call<Start>("start_process", {
      command: `echo READY; ${busy}; sleep 30`,
      ...(signal === "SIGTERM" ? { name: "gap" } : { pane_id: "gap" }),
      ready: "READY",
    });
    assertEquals(started.outcome, "ready");
    const stop = await server.call<Stop>("stop_process", { pane_id: "gap", signal });
    assertEquals({ was: stop.was_running, stopped: stop.stopped, code: stop.exit_code }, {
      was: true,
      stopped: true,
      code: signal === "SIGTERM" ? 143 : 130,
    });
  }
});

Deno.test("start_process: a process that exits before ready reports its exit code and last lines", async () => {
  await using server = await TestServer.start({ env: ENV });
  const result = await server.call<Start>("start_process", {
    command: "echo boot; echo 'fatal: port in use'; exit 3",
    ready: "READY",
    timeout_ms: 5000,
  });
  assertEquals({ outcome: result.outcome, code: result.exit_code, lines: result.last_lines }, {
    outcome: "exited",
    code: 3,
    lines: ["boot", "fatal: port in use"],
  });
  // A program (not the shell) exiting: its status comes from the end marker; the pane stays a shell.
  const program = await server.call<Start>("start_process", { command: "sh -c 'echo boot; exit 4'", ready: "READY" });
  assertEquals({ outcome: program.outcome, code: program.exit_code, lines: program.last_lines }, {
    outcome: "exited",
    code: 4,
    lines: ["boot"],
  });
});

Deno.test("start_process: without ready returns at once; with a ready that never comes, times out", async () => {
  await using server = await TestServer.start({ env: ENV });
  const quick = await server.call<Start>("start_process", { command: "sleep 30" });
  assertEquals(quick.outcome, "started");
  const slow = await server.call<Start>("start_process", {
    command: "echo waiting; sleep 30",
    ready: "never",
    timeout_ms: 400,
  });
  assertEquals({ outcome: slow.outcome, lines: slow.last_lines }, { outcome: "timeout", lines: ["waiting"] });
});

Deno.test("stop_process: a program ignoring SIGINT is reported as still running, SIGKILL stops it", async () => {
  await using server = await TestServer.start({ env: ENV });
  const started = await server.call<Start>("start_process", {
    command: `sh -c "trap '' INT; echo armed; while :; do sleep 1; done"`,
    ready: "armed",
  });
  assertEquals(started.outcome, "ready");
  const soft = await server.call<Stop>("stop_process", { pane_id: started.pane_id, timeout_ms: 600 });
  assertEquals({ stopped: soft.stopped, running: soft.still_running?.command }, { stopped: false, running: "sh" });
  const hard = await server.call<Stop>("stop_process", { pane_id: started.pane_id, signal: "SIGKILL" });
  assertEquals({ stopped: hard.stopped, code: hard.exit_code }, { stopped: true, code: 137 });
  const after = await server.call<{ output: string }>("execute_command", {
    pane_id: started.pane_id,
    command: "echo usable",
  });
  assertEquals(after.output, "usable");
});

Deno.test("stop_process: a pane this server did not create needs tier destructive", async () => {
  await using server = await TestServer.start({ env: ENV });
  await server.call("execute_command", { command: "true" }); // the tmux server exists
  const made = await server.tmux("new-session", "-d", "-s", "users", "-P", "-F", "#{pane_id}", "sleep 30");
  const error = await server.callError("stop_process", { pane_id: made.stdout.trim() });
  assert(/TIER_DENIED/.test(error), error);
});
