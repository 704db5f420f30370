import assert from "node:assert/strict";
import { SshLab } from "./helpers/sshd.ts";
import { attachOnTerminal, labCli } from "./helpers/lab_server.ts";

/** main.ts with the start task's permissions, the lab's hosts configured through the environment. */
function tmuxwright(lab: SshLab, args: string[]) {
  return labCli(lab, ["alpha", "stranger", "changed", "notmux"], args);
}

Deno.test({
  name: "doctor --host and attach --host over real OpenSSH",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    await t.step("doctor --host checks ssh, the host key and the host's tmux", async () => {
      const ok = await tmuxwright(lab, ["doctor", "--host", "alpha"]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /^ok {3}connection and host key: ssh reached alpha/m);
      assert.match(ok.stdout, /^ok {3}tmux on alpha: 3\.\d\w* \(need 3\.2 or newer\), server .*tmux-alpha/m);
      assert.match(ok.stdout, /^ok {3}commands on alpha through the connection/m);
      // The lab's hosts are this Linux machine's: /proc, unless the run forces ps.
      const forced = Deno.env.get("TMUXWRIGHT_PROCESS_FACTS") === "ps";
      assert.match(
        ok.stdout,
        forced ? /^ok {3}process facts on alpha: ps \(forced\)$/m : /^ok {3}process facts on alpha: proc \(/m,
      );
      // The doctor's own session is gone afterwards.
      const sessions = await lab.remoteTmux("alpha", "list-sessions", "-F", "#{session_name}");
      assert.ok(!sessions.stdout.includes("tmuxwright-link-doctor"), sessions.stdout);

      const unknown = await tmuxwright(lab, ["doctor", "--host", "stranger"]);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stdout, /^FAIL HOST_KEY_UNKNOWN: Host "stranger"/m);
      assert.match(unknown.stdout, /Run ssh -F \S+ stranger once in a terminal/);
      const changed = await tmuxwright(lab, ["doctor", "--host", "changed"]);
      assert.match(changed.stdout, /^FAIL HOST_KEY_CHANGED: /m);
      const notmux = await tmuxwright(lab, ["doctor", "--host", "notmux"]);
      assert.match(notmux.stdout, /^FAIL TMUX_UNAVAILABLE: tmux is not installed .* on host "notmux"/m);
    });

    await t.step("attach --host lists the host's workspaces and attaches read-only through ssh -t", async () => {
      const none = await tmuxwright(lab, ["attach", "--host", "alpha", "--list"]);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /No tmuxwright workspace is running on host alpha/);
      await lab.remoteTmux("alpha", "-f", "/dev/null", "new-session", "-d", "-s", "tmuxwright-4242");
      const listed = await tmuxwright(lab, ["attach", "--host", "alpha", "--list"]);
      assert.match(listed.stdout, /^tmuxwright-4242 /m);
      // Not on a terminal: the command a person would run.
      const printed = await tmuxwright(lab, ["attach", "--host", "alpha"]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /^ssh -t -F \S+ -- alpha 'tmux attach-session -r -t =tmuxwright-4242'$/m);
      const missing = await tmuxwright(lab, ["attach", "--host", "alpha", "999"]);
      assert.match(missing.stderr, /No workspace "999" on host alpha/);

      // On a terminal (a local tmux pane): a read-only client appears on the remote workspace.
      const clients = await attachOnTerminal(
        lab,
        ["alpha"],
        "alpha",
        "tmuxwright-4242 1",
        async () => (await lab.remoteTmux("alpha", "list-clients", "-F", "#{session_name} #{client_readonly}")).stdout,
      );
      assert.match(clients, /^tmuxwright-4242 1$/m);
    });
  },
});
