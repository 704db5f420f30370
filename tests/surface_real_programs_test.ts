import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

Deno.test("the primitives with a slow, chatty shell start-up and real programs (python3, less, vim)", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const home = `${dir}/home`;
  await Deno.mkdir(home);
  await Deno.writeTextFile(
    `${home}/.bashrc`,
    "echo 'loading plugins...'; sleep 0.3; echo 'welcome back'; PS1='\\u@\\h:\\w\\$ '\n",
  );
  await using server = await TestServer.start({ dir, args: ["--tools", "all"], env: { HOME: home } });
  const atPrompt = (pane: string) =>
    until(() => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }), (s) => s.at_shell_prompt);
  const command = (pane: string) =>
    server.call<{ value: string }>("display_message", { format: "#{pane_current_command}", pane_id: pane });

  // A session of its own with the chatty shell, then python3 in it.
  const work = await server.call<{ pane_id: string; session_id: string }>("create_session", { name: "work" });
  await atPrompt(work.pane_id);
  const greeting = await server.call<{ content: string }>("read_logs", { pane_id: work.pane_id });
  assert.match(greeting.content, /loading plugins\.\.\.\nwelcome back/);
  await server.call("send_keys", { pane_id: work.pane_id, text: "python3 -q" });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: work.pane_id }),
    (r) => />>>$/.test(r.text),
  );
  const answer = await server.call<{ output: string }>("run_in_repl", {
    pane_id: work.pane_id,
    input: "print(6*7)",
    prompt: "^>>> $",
    timeout_ms: 20_000,
  });
  assert.match(answer.output, /^42$/m);

  // A person's python3, logged from now on with pipe_pane: waits and read_logs follow it.
  const made = await server.tmux("new-session", "-d", "-s", "mine", "-P", "-F", "#{pane_id}", "python3 -q");
  const theirs = made.stdout.trim();
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: theirs }), (r) => r.text.includes(">>>"));
  await server.call("pipe_pane", { pane_id: theirs });
  await server.tmux("send-keys", "-t", theirs, "import time; time.sleep(0.3); print('ans', 6*7)", "Enter");
  const waited = await server.call<{ matched: boolean }>("wait_for_text", {
    pane_id: theirs,
    pattern: "ans 42",
    timeout_ms: 20_000,
  });
  assert.equal(waited.matched, true);
  assert.match((await server.call<{ content: string }>("read_logs", { pane_id: theirs })).content, /^ans 42$/m);

  // less in a window of its own: copy mode over it and back.
  await Deno.writeTextFile(`${dir}/lines.txt`, Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n"));
  const pager = await server.call<{ pane_id: string; window_id: string }>("create_window", {
    session: "work",
    name: "pager",
    command: `exec less ${dir}/lines.txt`,
  });
  await until(() => command(pager.pane_id), (r) => r.value === "less");
  const copy = await server.call<{ in_mode: boolean; scroll_position: number }>("enter_copy_mode", {
    pane_id: pager.pane_id,
    scroll_up: 3,
  });
  assert.equal(copy.in_mode, true);
  assert.equal((await server.call<{ in_mode: boolean }>("exit_copy_mode", { pane_id: pager.pane_id })).in_mode, false);
  assert.equal((await command(pager.pane_id)).value, "less");

  // vim replaces the shell, then the chatty shell comes back.
  await server.call("respawn_pane", { pane_id: work.pane_id, command: "exec vim -u NONE -N" });
  await until(() => command(work.pane_id), (r) => r.value === "vim");
  await server.call("respawn_pane", { pane_id: work.pane_id });
  await atPrompt(work.pane_id);

  await server.call("select_layout", { window: pager.window_id, layout: "tiled" });
  await server.call("write_to_display", { text: "python, less and vim checked" });
  const { windows } = await server.call<{ windows: { session: string; owned: boolean }[] }>("list_windows", {
    session: "work",
  });
  assert.deepEqual(windows.map((w) => [w.session, w.owned]), [["work", true], ["work", true]]);
});
