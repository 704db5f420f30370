import assert from "node:assert/strict";
import { TestServer, tmuxAt, until } from "./helpers/harness.ts";
import { personTmuxConf } from "./helpers/person_tmux_conf.ts";

/**
 * A person's own tmux server, with their configuration (tests/helpers/person_tmux_conf.ts): every
 * answer stays exact, and their sessions, windows and panes are as they were.
 */

/** The person's sessions, windows and panes as tmux lists them (tmuxwright's own left out). */
async function personsLayout(socket: string): Promise<string[]> {
  const windows = await tmuxAt(
    socket,
    "list-windows",
    "-a",
    "-F",
    "#{session_name}:#{window_index}:#{window_name}:#{window_panes}:#{window_active}",
  );
  const panes = await tmuxAt(
    socket,
    "list-panes",
    "-a",
    "-F",
    "#{session_name}:#{window_index}.#{pane_index}:#{pane_id}",
  );
  return [...windows.stdout.split("\n"), ...panes.stdout.split("\n")]
    .filter((line) => line !== "" && !line.startsWith("tmuxwright"));
}

interface Exec {
  output: string;
  exit_code: number | null;
  outcome?: string;
}

/** The calls an agent makes most, each checked for its exact answer. */
async function exactAnswers(server: TestServer): Promise<void> {
  const first = await server.call<Exec>("execute_command", { command: "echo hello; false" });
  assert.deepEqual([first.output, first.exit_code], ["hello", 1]);
  const text = await server.call<Exec>("execute_command", {
    command: "cd /tmp && export GREETING='hi $there'; printf 'a  b%s\\n' '\\x'; echo \"$GREETING\" $((6*7))",
  });
  assert.deepEqual([text.output, text.exit_code], ["a  b\\x\nhi $there 42", 0]);
  const kept = await server.call<Exec>("execute_command", { command: 'pwd; echo "$GREETING"' });
  assert.equal(kept.output, "/tmp\nhi $there");

  const web = await server.call<{ pane_id: string; outcome: string; matched_line: string }>("start_process", {
    command: "sh -c 'sleep 0.2; echo listening on 8080; sleep 600'",
    name: "web",
    ready: "listening on",
  });
  assert.deepEqual([web.outcome, web.matched_line], ["ready", "listening on 8080"]);

  const asked = await server.call<Exec & { pane_id: string }>("execute_command", {
    command: "read -p 'name? ' n; echo \"hi $n\"",
  });
  assert.equal(asked.outcome, "input");
  const answered = await server.call<{ output: string }>("send_keys", {
    pane_id: asked.pane_id,
    text: "bob",
    wait: ["shell"],
  });
  assert.match(answered.output, /hi bob/);

  const failed = await server.call<{ pane_id: string }>("create_pane", {
    name: "failing",
    command: "sh -c 'echo failing-now; exit 3'",
  });
  const panes = await until(
    () =>
      server.call<{ panes: { pane_id: string; name: string | null; status: string; exit_code?: number }[] }>(
        "list_panes",
        { owned_only: true },
      ),
    (listed) => listed.panes.some((p) => p.pane_id === failed.pane_id && p.status === "exited"),
  );
  assert.equal(panes.panes.find((p) => p.pane_id === failed.pane_id)?.exit_code, 3);
  assert.deepEqual(panes.panes.map((p) => p.name).filter((n) => n !== null).sort(), ["default", "failing", "web"]);
  const capture = await server.call<{ text: string }>("capture_pane", { pane_id: "failing" });
  assert.match(capture.text, /failing-now/);
  await server.call("kill_pane", { pane_id: "web" });
}

Deno.test("a person's running tmux server with their tmux.conf: answers exact, their sessions and windows as they were", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const conf = `${dir}/tmux.conf`;
  await Deno.writeTextFile(conf, personTmuxConf(dir));
  const socket = `${dir}/s`;
  const start = await tmuxAt(socket, "-f", conf, "new-session", "-d", "-s", "work", "-n", "editor", "sleep 900");
  assert.equal(start.code, 0, start.stderr);
  await tmuxAt(socket, "new-window", "-d", "-t", "work:", "-n", "logs", "sleep 900");
  await tmuxAt(socket, "split-window", "-d", "-t", "work:logs", "sleep 900");
  await tmuxAt(socket, "new-session", "-d", "-s", "notes", "sleep 900");
  const before = await personsLayout(socket);
  assert.ok(before.some((line) => line.startsWith("work:1:editor:")), before.join("\n")); // base-index 1 took

  const server = await TestServer.start({ dir, args: ["--tmux-config", conf] });
  try {
    await exactAnswers(server);
    assert.deepEqual(await personsLayout(socket), before);
    const hooks = await Deno.readTextFile(`${dir}/hooks.log`).catch(() => "");
    assert.match(hooks, /session-created/); // the person's hooks ran on tmuxwright's sessions too
  } finally {
    await server.close(false); // the person's tmux server stays
  }
  const after = await until(
    () => tmuxAt(socket, "list-sessions", "-F", "#{session_name}"),
    (out) => !out.stdout.includes("tmuxwright"),
  );
  assert.deepEqual(after.stdout.trim().split("\n").sort(), ["notes", "work"]);
  assert.deepEqual(await personsLayout(socket), before);
  await tmuxAt(socket, "kill-server");
  await Deno.remove(dir, { recursive: true }).catch(() => {});
});

Deno.test("a tmux server tmuxwright starts reads the person's tmux.conf, and every answer stays exact", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const conf = `${dir}/tmux.conf`;
  await Deno.writeTextFile(conf, personTmuxConf(dir));
  await using server = await TestServer.start({ dir, args: ["--tmux-config", conf] });
  await exactAnswers(server);
  const shown = await server.tmux("show-options", "-gv", "base-index");
  assert.equal(shown.stdout.trim(), "1"); // the server did read it
});
