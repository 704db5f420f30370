import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * `exit` typed as a command ends the pane's shell: the result is the command's own output and the
 * shell's status, never the shell's goodbye line (bash and tcsh print `exit`, a bash login shell
 * `logout`, on the terminal as the builtin runs), in every shell, integrated or not, and on a host.
 */
type Exit = ExecResult & { shell_exited?: boolean };

/**
 * `reported`: the result says shell_exited. fish prints its end mark (fish_postexec) before it
 * exits, so the call ends on it as on any command; tcsh runs the wrapper line's `source FILE`, where
 * `exit` ends the file, not the shell.
 */
const SHELLS: Record<string, { shell: string; login?: boolean; reported?: false }> = {
  bash: { shell: "/bin/bash" },
  "bash, a login shell": { shell: "/bin/bash", login: true },
  zsh: { shell: "/usr/bin/zsh" },
  fish: { shell: "/usr/bin/fish", reported: false },
  dash: { shell: "/bin/dash" },
  mksh: { shell: "/usr/bin/mksh" },
  ksh93: { shell: "/usr/bin/ksh93" },
  yash: { shell: "/usr/bin/yash" },
  tcsh: { shell: "/usr/bin/tcsh", reported: false },
  "busybox sh": { shell: "/usr/bin/busybox" },
};

for (const [name, { shell, login, reported }] of Object.entries(SHELLS)) {
  Deno.test(`exit in ${name}: the command's output and status, no goodbye line`, async () => {
    const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
    try {
      let program = shell;
      if (shell.endsWith("busybox")) {
        await Deno.mkdir(`${home}/bin`);
        program = `${home}/bin/ash`;
        await Deno.symlink(shell, program);
      }
      await using server = await TestServer.start({ env: { HOME: home, SHELL: program } });
      const { pane_id } = await server.call<{ pane_id: string }>("create_pane", login ? { login } : {});
      const run = (command: string) => server.call<Exit>("execute_command", { pane_id, command });
      assert.equal((await run("echo ready")).output, "ready");
      // The command itself prints the goodbye word last: only the shell's own line goes.
      const left = await run("echo x; echo exit; exit 5");
      const said = [left.output, left.exit_code, left.shell_exited ?? false];
      assert.deepEqual(said, ["x\nexit", 5, reported ?? true], JSON.stringify(left));
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("exit in a bash started inside the integrated one: its output and status, no goodbye line", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  await server.call("execute_command", { command: "true" });
  await server.call("start_process", { pane_id: "default", command: "bash --norc --noprofile" });
  const left = await server.call<Exit>("execute_command", { pane_id: "default", command: "echo x; exit 5" });
  assert.deepEqual([left.output, left.exit_code, left.shell_exited], ["x", 5, true], JSON.stringify(left));
});

Deno.test({
  name: "exit on a host: the command's output and status, no goodbye line",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    await using server = await labServer(lab, ["alpha"], { env: { SHELL: "/bin/bash" } });
    const pane = await server.call<{ pane_id: string }>("create_pane", { host: "alpha" });
    // tmux 3.3a drops a pane's output that it has not yet sent to a control client when the pane
    // dies (control_write_pending frees the blocks of a pane whose fd is closed): output printed
    // just before the shell exits can be lost on a link. The pause keeps `x` from that race.
    const command = "echo x; sleep 0.3; exit 5";
    const left = await server.call<Exit>("execute_command", { pane_id: pane.pane_id, command });
    assert.deepEqual([left.output, left.exit_code, left.shell_exited], ["x", 5, true], JSON.stringify(left));
  },
});
