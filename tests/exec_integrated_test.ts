import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname } from "node:path";
import { TestServer, until } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * The shell the server starts (the user's $SHELL) is integrated: commands are typed as they are,
 * so the pane, capture_pane, snapshot_pane, read_logs and last_lines show the command, never the
 * wrapper; output and exit codes stay exact.
 */
const SHELLS = { bash: "/bin/bash", zsh: "/usr/bin/zsh", fish: "/usr/bin/fish", dash: "/bin/dash" };

/**
 * Text that only the wrapper line or the marks' plumbing would put on screen. A mark's number is
 * followed by its `;` or `~`: a test directory's random hex name can hold the digits themselves.
 */
const PLUMBING = /6973[;~]|\\033\]|__tw_|\/exec\/|string collect|printf '/;

type Exec = ExecResult & { pane_id: string };

function pick(result: Exec) {
  return { output: result.output, exit_code: result.exit_code };
}

/** What a person and an agent read in the pane: the screen, the snapshot and the log. */
async function views(server: TestServer, pane_id: string): Promise<Record<string, string>> {
  const capture = await server.call<{ text: string }>("capture_pane", { pane_id, lines: 500 });
  const snapshot = await server.call<{ content: string }>("snapshot_pane", { pane_id });
  const log = await server.call<{ content: string }>("read_logs", { pane_id, lines: 500 });
  return { capture: capture.text, snapshot: snapshot.content, read_logs: log.content };
}

function assertShown(seen: Record<string, string>, commands: string[]): void {
  for (const [view, text] of Object.entries(seen)) {
    assert.ok(!PLUMBING.test(text), `${view} shows plumbing:\n${text}`);
    for (const command of commands) {
      assert.ok(text.includes(command), `${view} lacks ${JSON.stringify(command)}:\n${text}`);
    }
  }
}

for (const [name, path] of Object.entries(SHELLS)) {
  Deno.test(`${name} started by the server: commands typed as they are, output and exit codes exact`, async () => {
    await using server = await TestServer.start({ env: { SHELL: path } });
    const run = (command: string, extra: Record<string, unknown> = {}) =>
      server.call<Exec>("execute_command", { command, timeout_ms: 15_000, ...extra });

    assertEquals(pick(await run("echo hi")), { output: "hi", exit_code: 0 });
    const pane_id = (await run("false")).pane_id;
    assertEquals(pick(await run("false")), { output: "", exit_code: 1 });
    assertEquals(pick(await run("sh -c 'exit 42'")), { output: "", exit_code: 42 });
    await run("cd /tmp");
    assertEquals(pick(await run("pwd")), { output: "/tmp", exit_code: 0 });
    await run(name === "fish" ? "set -gx TW_X 1" : "export TW_X=1");
    assertEquals(pick(await run("echo $TW_X")), { output: "1", exit_code: 0 });
    assertEquals(pick(await run("test -t 1 && echo tty")), { output: "tty", exit_code: 0 });
    assertEquals(pick(await run("echo 'one two'\necho three\nfalse")), { output: "one two\nthree", exit_code: 1 });
    assertEquals(pick(await run("echo a!b")), { output: "a!b", exit_code: 0 }); // no history expansion
    assertEquals(pick(await run("pwd", { cwd: "/usr" })), { output: "/usr", exit_code: 0 });
    assertShown(await views(server, pane_id), ["echo hi", "sh -c 'exit 42'", "echo a!b", "echo three", "cd '/usr'"]);

    const long = "x".repeat(64 * 1024);
    assertEquals(pick(await run(`echo ${long} | wc -c`)), { output: String(long.length + 1), exit_code: 0 });
    if (name !== "fish") {
      const heredoc = await run("cat <<'EOF'\nline $1 `x`\n  'quoted' \"double\"\nEOF\necho done");
      assertEquals(pick(heredoc), { output: "line $1 `x`\n  'quoted' \"double\"\ndone", exit_code: 0 });
    }
    // The pane's own log holds this shell's marks: printing it cannot end the command early.
    const { log_path } = await server.call<{ log_path: string }>("read_logs", { pane_id, lines: 1 });
    const echoed = await run(`cat '${log_path}' >/dev/null; cat '${log_path}' | tail -c 3000; echo after`);
    assert.ok(echoed.output.endsWith("after") && echoed.exit_code === 0, JSON.stringify(echoed).slice(-300));
    assertShown(await views(server, pane_id), ["echo after"]);
  });
}

Deno.test("start_process and stop_process in an integrated shell show the command, not plumbing", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  const started = await server.call<{ pane_id: string; outcome: string }>("start_process", {
    command: "echo starting; sleep 0.2; echo 'web READY'; sleep 30",
    name: "web",
    ready: "READY",
  });
  assertEquals(started.outcome, "ready");
  const stopped = await server.call<{ exit_code: number; last_lines: string[] }>("stop_process", { pane_id: "web" });
  assertEquals({ code: stopped.exit_code, lines: stopped.last_lines }, {
    code: 130,
    lines: ["starting", "web READY", "^C"],
  });
  assertShown(await views(server, "web"), ["echo starting; sleep 0.2; echo 'web READY'; sleep 30"]);
});

Deno.test("a shell started inside the integrated one gets the wrapper line, and exact results", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  await server.call("execute_command", { command: "true" });
  const nested = await server.call<{ outcome: string }>("start_process", {
    pane_id: "default",
    command: "bash --norc --noprofile",
  });
  assertEquals(nested.outcome, "started");
  const inner = await server.call<Exec>("execute_command", { pane_id: "default", command: "echo $$ inner; false" });
  assert.match(inner.output, /^\d+ inner$/);
  assertEquals(inner.exit_code, 1);
  const exited = await server.call<Exec>("execute_command", { pane_id: "default", command: "exit 3" });
  assertEquals(exited.exit_code, 3);
  // Back in the integrated shell: typed as it is again.
  assertEquals(pick(await server.call<Exec>("execute_command", { command: "echo outer" })), {
    output: "outer",
    exit_code: 0,
  });
  const log = await server.call<{ content: string }>("read_logs", { pane_id: "default", lines: 3 });
  assert.ok(log.content.includes("echo outer") && !PLUMBING.test(log.content.split("echo outer")[1]), log.content);
});

/** Start-up files that are slow, chatty, and set what could break marks: their own hooks and prompts. */
const CHATTY: Record<string, { file: string; text: string; env?: Record<string, string> }> = {
  bash: {
    file: ".bashrc",
    text: 'for i in 1 2 3 4 5; do echo "loading plugin $i"; sleep 0.1; done\n' +
      "PROMPT_COMMAND='printf \"\\033]0;title\\007\"; false'\nPS1='[rc] \\w \\$ '\nset -H\nunset HISTCONTROL\n",
  },
  zsh: {
    file: ".zshrc",
    text: 'for i in 1 2 3; do echo "loading plugin $i"; sleep 0.1; done\n' +
      "setopt correct prompt_subst\nprecmd() { print '' }\nPROMPT='%~ %# '\nPROMPT_EOL_MARK=''\n",
  },
  fish: {
    file: ".config/fish/config.fish",
    text: 'for i in 1 2 3; echo "loading plugin $i"; sleep 0.1; end\n' +
      "function fish_prompt; echo; printf '%s > ' (prompt_pwd); end\n",
  },
  dash: {
    file: ".shrc",
    text: "i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo \"loading plugin $i\"; sleep 0.1; done\nPS1='[rc] $ '\n",
    env: { ENV: "" }, // set to the home's .shrc below
  },
};

for (const [name, rc] of Object.entries(CHATTY)) {
  Deno.test(`${name} with a slow, chatty start-up file that sets its own hooks and prompt`, async () => {
    const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
    try {
      // The file's folder (".config/fish"); a path ending in "/.." would make the file a folder under -A.
      await Deno.mkdir(dirname(`${home}/${rc.file}`), { recursive: true });
      await Deno.writeTextFile(`${home}/${rc.file}`, rc.text);
      const env: Record<string, string> = { HOME: home, SHELL: SHELLS[name as keyof typeof SHELLS] };
      if (rc.env) env.ENV = `${home}/${rc.file}`;
      await using server = await TestServer.start({ env });
      const run = (command: string) => server.call<Exec>("execute_command", { command, timeout_ms: 15_000 });
      assertEquals(pick(await run("echo hi")), { output: "hi", exit_code: 0 });
      assertEquals(pick(await run("sh -c 'exit 5'")), { output: "", exit_code: 5 });
      assertEquals(pick(await run("echo a!b; true")), { output: "a!b", exit_code: 0 });
      assertEquals(pick(await run("echo 'x y'\necho z")), { output: "x y\nz", exit_code: 0 });
      const seen = await views(server, "default");
      assertShown(seen, ["loading plugin 3", "echo hi", "sh -c 'exit 5'", "echo a!b; true"]);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("a command a person started in the integrated pane is not typed into; after it, commands go on", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  assertEquals(pick(await server.call<Exec>("execute_command", { command: "echo one" })), {
    output: "one",
    exit_code: 0,
  });
  // Typed as a person would, between two calls: the shell's start mark says it runs.
  await server.call("send_keys", { pane_id: "default", text: "sleep 1" });
  await until(
    () => server.call<{ foreground_command: string }>("pane_state", { pane_id: "default" }),
    (s) => s.foreground_command === "sleep",
  );
  const busy = await server.callError("execute_command", { command: "echo two" });
  assert.match(busy, /PANE_BUSY/);
  await server.call("send_keys", { pane_id: "default", text: "", keys: ["C-c"], wait: ["shell"] });
  assertEquals(pick(await server.call<Exec>("execute_command", { command: "echo three" })), {
    output: "three",
    exit_code: 0,
  });
});

Deno.test("a start-up file that replaces the shell (exec zsh): no marks come, commands go through the wrapper", async () => {
  const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
  try {
    await Deno.writeTextFile(`${home}/.bashrc`, "exec zsh -f\n");
    await using server = await TestServer.start({ env: { HOME: home, SHELL: "/bin/bash" } });
    // The first call sees zsh wait at its prompt with no mark in the log, and types the wrapper line.
    assertEquals(pick(await server.call<Exec>("execute_command", { command: "echo $ZSH_NAME" })), {
      output: "zsh",
      exit_code: 0,
    });
    const started = performance.now();
    assertEquals(pick(await server.call<Exec>("execute_command", { command: "false" })), { output: "", exit_code: 1 });
    assert.ok(performance.now() - started < 3_000, "the pane is known to print no marks");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
