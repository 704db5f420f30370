import assert from "node:assert/strict";
import { BridgeProcess } from "./helpers/bridge_process.ts";
import { cleanEnv, until } from "./helpers/harness.ts";
import { taskPermissions } from "./helpers/http.ts";

const BASH = { SHELL: "/bin/bash" };
type Out = { ok: boolean; output: string; error?: string; sessions?: string[]; metadata?: Record<string, unknown> };

/** A session whose shell is at its prompt (the prompt `$ ` set by the bridge test). */
async function ready(bridge: BridgeProcess, session: string, cwd?: string) {
  const created = await bridge.call({ action: "create_session", session, cwd });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  // `clear` keeps the old lines in the history where the pane's TERM has no E3 (tmux 3.2's "screen"): ED 3 clears it.
  await bridge.call({ action: "send_keys", session, text: "PS1='$ '; clear; printf '\\033[3J'", enter: true });
  await until(() => bridge.call({ action: "capture_pane", session }), (r) => (r.body as Out).output === "$");
}

Deno.test("tmux bridge: banner, health, sessions visible to tmux attach, the hub hidden", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  assert.match(bridge.banner[0], /^tmux bridge listening on http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual(bridge.banner.slice(1, 2), ["mode: tmux"]);
  assert.ok(bridge.banner.some((l) => l.startsWith("warning: TMUX_BRIDGE_TOKEN is not set")));
  const health = await (await fetch(`${bridge.url}/health`)).json();
  assert.deepEqual(health, {
    ok: true,
    mode: "tmux",
    backend: "tmux",
    tmuxVersion: health.tmuxVersion,
    socketPath: bridge.socket,
    sessions: 0,
  });
  assert.match(health.tmuxVersion, /^tmux (\d|next-|master)/);
  await ready(bridge, "work.1");
  const listed = await bridge.call({ action: "list_sessions" });
  assert.deepEqual(listed.body, { ok: true, action: "list_sessions", sessions: ["work.1"] });
  const ls = await bridge.tmux("list-sessions", "-F", "#{session_name}");
  assert.ok(ls.stdout.split("\n").includes("work_1"), ls.stdout); // tmux's name for it: `.` is a separator
  // A session made outside the bridge is listed and can be ended by name, which is what the bridge is for.
  await bridge.tmux("new-session", "-d", "-s", "outside");
  assert.deepEqual((await bridge.call({ action: "list_sessions" })).body.sessions, ["outside", "work.1"]);
  assert.equal((await bridge.call({ action: "kill_session", session: "outside" })).status, 200);
  assert.equal((await bridge.call({ action: "kill_session", session: "work.1" })).status, 200);
  assert.deepEqual((await bridge.call({ action: "list_sessions" })).body.sessions, []);
  assert.equal((await bridge.call({ action: "capture_pane", session: "work.1" })).status, 404);
});

Deno.test("tmux bridge: cwd, send_and_capture waiting for real output, 408, 409, 404", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  await ready(bridge, "w", "/etc");
  const sent = await bridge.call({
    action: "send_and_capture",
    session: "w",
    text: "pwd; sleep 0.3; echo DONE-$((6*7))",
    enter: true,
    wait_for: "^DONE-42$",
    lines: 4,
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  // The last 4 lines when DONE-42 appeared: the command line, its output, perhaps the next prompt.
  assert.match(
    sent.body.output,
    /^(\$ )?pwd; sleep 0\.3; echo DONE-\$\(\(6\*7\)\)\n\/etc\nDONE-42(\n\$)?$|\n\/etc\nDONE-42\n\$$/,
  );
  assert.ok((sent.body.metadata.elapsed_ms as number) >= 300);
  const late = await bridge.call({
    action: "send_and_capture",
    session: "w",
    text: "echo nope",
    enter: true,
    wait_for: "^never$",
    timeout_ms: 300,
  });
  assert.deepEqual(late, {
    status: 408,
    body: { ok: false, error: "wait_for regex did not match before timeout (300ms)." },
  });
  assert.deepEqual(await bridge.call({ action: "create_session", session: "w" }), {
    status: 409,
    body: { ok: false, error: "Session already exists: w" },
  });
  assert.deepEqual(await bridge.call({ action: "send_keys", session: "ghost", text: "x" }), {
    status: 404,
    body: { ok: false, error: "Session not found: ghost" },
  });
  assert.equal(
    (await bridge.call({ action: "create_session", cwd: "/nonexistent" })).body.error,
    "cwd does not exist: /nonexistent",
  );
});

Deno.test("tmux bridge: hostile text is typed literally and runs nothing", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  await ready(bridge, "h");
  const d = bridge.dir;
  const hostile =
    `echo 'q' "d"; touch ${d}/p1 $(touch ${d}/p2) \`touch ${d}/p3\` #{session_name} #(touch ${d}/p4)\ntouch ${d}/p5`;
  assert.equal((await bridge.call({ action: "send_keys", session: "h", text: hostile })).status, 200);
  const screen = await until(
    () => bridge.call({ action: "capture_pane", session: "h", join_wrapped: true }),
    (r) => (r.body as Out).output.includes(`touch ${d}/p5`),
  );
  assert.ok(screen.body.output.includes(`#{session_name} #(touch ${d}/p4)`), screen.body.output);
  for (const name of ["p1", "p2", "p3", "p4", "p5"]) {
    await assert.rejects(Deno.stat(`${d}/${name}`), Deno.errors.NotFound, name);
  }
  await bridge.call({ action: "send_keys", session: "h", keys: ["C-c"] });
  // One line with enter runs as typed: the shell sees the quotes, tmux expands nothing.
  const echoed = await bridge.call({
    action: "send_and_capture",
    session: "h",
    text: `clear; echo '#{session_name};$(id)' "x;y"`,
    enter: true,
    wait_for: "^#\\{session_name\\};\\$\\(id\\) x;y$",
  });
  assert.equal(echoed.status, 200, JSON.stringify(echoed.body));
});

Deno.test("tmux bridge: lines counts back from the last output; join_wrapped joins long lines", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  await ready(bridge, "j");
  const long = "x".repeat(150);
  await bridge.call({
    action: "send_and_capture",
    session: "j",
    text: `clear; seq 1 30; echo ${long}`,
    enter: true,
    wait_for: "^x{20}",
  });
  const joined = await until(
    () => bridge.call({ action: "capture_pane", session: "j", lines: 2, join_wrapped: true }),
    (r) => (r.body as Out).output.endsWith("$"),
  );
  assert.equal(joined.body.output, `${long}\n$`);
  const wrapped = await bridge.call({ action: "capture_pane", session: "j", lines: 3 });
  assert.equal(wrapped.body.output, `${long.slice(0, 80)}\n${long.slice(80)}\n$`);
  const seq = await bridge.call({ action: "capture_pane", session: "j", lines: 5, join_wrapped: true });
  assert.equal(seq.body.output, `28\n29\n30\n${long}\n$`);
});

Deno.test("tmux bridge: a tmux operation over TMUX_BRIDGE_COMMAND_TIMEOUT_MS is 504", async () => {
  await using bridge = await BridgeProcess.start({ ...BASH, TMUX_BRIDGE_COMMAND_TIMEOUT_MS: "500" });
  await bridge.call({ action: "create_session", session: "t" });
  const pid = Number((await bridge.tmux("display-message", "-p", "#{pid}")).stdout.trim());
  Deno.kill(pid, "SIGSTOP"); // tmux stops answering
  try {
    const started = performance.now();
    assert.deepEqual(await bridge.call({ action: "capture_pane", session: "t" }), {
      status: 504,
      body: { ok: false, error: "tmux command timed out after 500ms." },
    });
    assert.ok(performance.now() - started < 3000);
  } finally {
    Deno.kill(pid, "SIGCONT");
  }
  await until(() => bridge.call({ action: "list_sessions" }), (r) => r.status === 200);
});

Deno.test("tmux bridge: SIGTERM removes the workspace hub and leaves the bridge's sessions", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  await bridge.call({ action: "create_session", session: "keep" });
  const before = await bridge.tmux("list-sessions", "-F", "#{session_name}");
  assert.match(before.stdout, /^tmuxwright-\d+$/m);
  const status = await bridge.stop();
  assert.equal(status.code, 0);
  const after = await bridge.tmux("list-sessions", "-F", "#{session_name}");
  assert.equal(after.stdout.trim(), "keep");
});

Deno.test("tmux bridge: without tmux it says so in one line naming TMUX_BRIDGE_MODE=stub; stub mode needs none", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const run = (extra: Record<string, string>) => {
      const env = cleanEnv({ PORT: "0", PATH: "/nonexistent", TMUX_BRIDGE_SOCKET_PATH: `${dir}/s`, ...extra });
      return new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          ...taskPermissions("bridge", env, [dir]),
          new URL("../main.ts", import.meta.url).pathname,
          "bridge",
        ],
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      });
    };
    const missing = await run({}).output();
    assert.equal(missing.code, 1);
    const stderr = new TextDecoder().decode(missing.stderr).trim();
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, /tmux is not installed or not on PATH.*TMUX_BRIDGE_MODE=stub/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await using stub = await BridgeProcess.start({ TMUX_BRIDGE_MODE: "stub", PATH: "/nonexistent" });
  assert.deepEqual(await (await fetch(`${stub.url}/health`)).json(), {
    ok: true,
    mode: "stub",
    backend: "stub",
    sessions: 0,
  });
});

Deno.test("tmux bridge: 20 sessions created and waited on at once, right after start, all answer and tmux stays up", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  const sessions = Array.from({ length: 20 }, (_, i) => `c${i}`);
  const results = await Promise.all(sessions.map(async (session) => {
    await bridge.call({ action: "create_session", session });
    return await bridge.call({
      action: "send_and_capture",
      session,
      text: `PS1='$ '; clear; echo ONLY-${session}`,
      enter: true,
      wait_for: "^\\$$",
      timeout_ms: 20_000,
    });
  }));
  assert.deepEqual(results.map((r) => r.status), sessions.map(() => 200), bridge.stderr.join(""));
  assert.deepEqual((await bridge.call({ action: "list_sessions" })).body.sessions, [...sessions].sort());
});

Deno.test("tmux bridge: capture follows the session's input pane when it changes, or 404 when the session is gone", async () => {
  await using bridge = await BridgeProcess.start(BASH);
  await ready(bridge, "c");
  await bridge.call({ action: "send_keys", session: "c", text: "echo first-pane", enter: true });
  await until(
    () => bridge.call({ action: "capture_pane", session: "c" }),
    (r) => /first-pane\n\$$/.test((r.body as Out).output),
  );
  // A person opens a new window in that session: input (and capture) now goes to its pane.
  assert.equal((await bridge.tmux("new-window", "-t", "c:", "printf 'second-window\\n'; exec cat")).code, 0);
  await until(
    () => bridge.call({ action: "capture_pane", session: "c" }),
    (r) => (r.body as Out).output === "second-window",
  );
  // Killed outside the bridge and made again under the same name: a new session, a new pane.
  await bridge.tmux("kill-session", "-t", "c");
  assert.equal((await bridge.call({ action: "capture_pane", session: "c" })).status, 404);
  await ready(bridge, "c");
  assert.equal(((await bridge.call({ action: "capture_pane", session: "c" })).body as Out).output, "$");
});
