import assert from "node:assert/strict";
import { labServer } from "./helpers/lab_server.ts";
import { SshLab } from "./helpers/sshd.ts";
import type { ExecResult } from "./helpers/results.ts";

// zsh and fish as the remote host's own shell (the SHELL its tmux server starts panes with): the
// remote shell integration starts them with their marks, so commands are typed as they are (no
// wrapper line), their output and exit status are exact, and state persists between commands.

for (const [host, shell, version] of [["zshhost", "zsh", "ZSH_VERSION"], ["fishhost", "fish", "FISH_VERSION"]]) {
  Deno.test({
    name: `${shell} as the host's shell: the remote integration runs commands as typed, exact output and status`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      await using lab = await SshLab.start();
      await using server = await labServer(lab, [host]);
      const pane = await server.call<{ pane_id: string }>("create_pane", { host, name: "sh" });

      const first = await server.call<ExecResult>("execute_command", {
        pane_id: pane.pane_id,
        command: `echo "${shell} $${version}" | cut -c1-${shell.length}; sh -c 'exit 4'`,
      });
      assert.equal(first.output, shell);
      assert.equal(first.exit_code, 4);
      // The pane's shell is the host's (the start-up gate, sh, has handed over to it by now).
      const listed = await server.call<{ panes: { pane_id: string; command: string }[] }>("list_panes", { host });
      assert.equal(listed.panes.find((p) => p.pane_id === pane.pane_id)?.command, shell);
      await server.call("execute_command", { pane_id: pane.pane_id, command: "cd /tmp" });
      const second = await server.call<ExecResult>("execute_command", { pane_id: pane.pane_id, command: "pwd" });
      assert.equal(second.output, "/tmp");
      assert.equal(second.exit_code, 0);
      const multi = await server.call<ExecResult>("execute_command", {
        pane_id: pane.pane_id,
        command: shell === "fish" ? "for i in 1 2 3\n  echo line-$i\nend" : "for i in 1 2 3; do\n  echo line-$i\ndone",
      });
      assert.equal(multi.output, "line-1\nline-2\nline-3");

      // Typed as it is: the pane shows the command, never a wrapper line or a command file.
      const shown = await server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id });
      assert.match(shown.text, /sh -c 'exit 4'/);
      assert.doesNotMatch(shown.text, /6973[;~]|__tw_run|tmuxwright-/, shown.text);

      // send_keys with a wait for the shell ends on its prompt mark. fish draws its prompt (and its
      // mark) again as keys come, so there the wait can end before the command ran (as on this
      // machine): the line is waited for instead.
      const sent = await server.call<{ trigger: string; output: string; cursor: string }>("send_keys", {
        pane_id: pane.pane_id,
        text: "echo keyed-$status",
        enter: true,
        wait: ["shell"],
      });
      assert.equal(sent.trigger, "shell", JSON.stringify(sent));
      if (shell === "fish") {
        const seen = await server.call<{ matched: boolean }>("wait_for_text", {
          pane_id: pane.pane_id,
          pattern: "keyed-0",
          cursor: sent.cursor,
          timeout_ms: 10_000,
        });
        assert.equal(seen.matched, true, JSON.stringify(seen));
      } else {
        assert.match(sent.output, /^keyed-0$/m, JSON.stringify(sent));
      }
    },
  });
}
