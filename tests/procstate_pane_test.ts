import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { shellPane } from "./helpers/shell_pane.ts";

type State = {
  alive: boolean;
  pid: number;
  foreground_pid: number;
  foreground_command: string;
  waiting_for_input: boolean | null;
  at_shell_prompt: boolean;
  exit_code?: number;
  reason: string;
};

Deno.test("pane_state: foreground sleep is not waiting; read x is; a dead pane has its exit code", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  const atPrompt = await server.call<State>("pane_state", { pane_id: pane });
  assert.equal(atPrompt.foreground_command, "bash");
  assert.equal(atPrompt.foreground_pid, atPrompt.pid);

  await server.call("send_keys", { pane_id: pane, text: "sleep 5" });
  const sleeping = await until(
    () => server.call<State>("pane_state", { pane_id: pane }),
    (s) => s.foreground_command === "sleep",
  );
  assert.notEqual(sleeping.foreground_pid, sleeping.pid);
  // macOS reports no wait channel: a sleeping program's reading is unknown there, and a `read` builtin looks like the prompt.
  const blind = Deno.build.os === "darwin";
  assert.equal(sleeping.waiting_for_input, blind ? null : false);
  assert.equal(sleeping.at_shell_prompt, false);
  await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });

  if (!blind) {
    await server.call("send_keys", { pane_id: pane, text: "read x" });
    const reading = await until(
      () => server.call<State>("pane_state", { pane_id: pane }),
      (s) => s.waiting_for_input === true && !s.at_shell_prompt,
    );
    assert.equal(reading.foreground_command, "bash");
    // /proc sees the call and its descriptor; ps only the kernel's wait channel.
    const ps = Deno.env.get("TMUXWRIGHT_PROCESS_FACTS") === "ps" || Deno.build.os !== "linux";
    assert.match(
      reading.reason,
      ps ? /^ps wchan (n_tty_read|wait_woken|ttyin|ttyraw): / : /read\(2\) on the terminal \(fd 0\)/,
    );
  }

  const exiting = await server.call<{ pane_id: string }>("create_pane", { command: "sleep 0.2; exit 7" });
  const dead = await until(
    () => server.call<State>("pane_state", { pane_id: exiting.pane_id }),
    (s) => !s.alive,
  );
  // tmux 3.3a sometimes marks a pane dead before reaping its process; the status is then unknown (null).
  assert.ok(dead.exit_code === 7 || dead.exit_code === null, JSON.stringify(dead));
  assert.equal(dead.waiting_for_input, false);
});
