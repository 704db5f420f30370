import assert from "node:assert/strict";
import { HOST_LOCK_NAME } from "../src/tmux/host_session_lock.ts";
import { until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * Round trips on a remote host, made visible by a slow lab link: 500 ms each way, so one round
 * trip is a second and the difference between one and three is seconds, far above any noise of a
 * loaded machine. A warm command costs one; a fresh pane's first process three plus its shell
 * (whose start, on a loaded machine, is given up to 3 s).
 */
const DELAY_MS = 500;
const RTT = 2 * DELAY_MS;

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

Deno.test({
  name: "a remote host at a distance: one round trip per command, three for a fresh pane",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    await using server = await labServer(lab, ["alpha"]);
    const pane = await server.call<{ pane_id: string }>("create_pane", { host: "alpha", name: "near" });
    await server.call("execute_command", { pane_id: pane.pane_id, command: "true" });
    const socketDir = (await lab.remoteTmux("alpha", "display-message", "-p", "#{socket_path}")).stdout.trim()
      .replace(/\/[^/]*$/, "");

    await t.step("the host's shell runs with the integration: the pane shows the command as typed", async () => {
      const result = await server.call<ExecResult>("execute_command", {
        pane_id: pane.pane_id,
        command: "echo typed-$((2+3)); (exit 4)",
      });
      assert.equal(result.output, "typed-5");
      assert.equal(result.exit_code, 4);
      const shown = await server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id });
      assert.match(shown.text, /# {1,2}echo typed-\$\(\(2\+3\)\); \(exit 4\)$/m, shown.text);
      assert.doesNotMatch(shown.text, /6973[;~]|tmuxwright-/, "no wrapper line"); // a mark, not a random dir name
      const dirs = [...Deno.readDirSync(socketDir)].filter((e) => e.isDirectory && e.name.startsWith("tmuxwright-"));
      assert.equal(dirs.length, 1, "the start-up files are in tmux's private directory on the host");
      const rc = Deno.readTextFileSync(`${socketDir}/${dirs[0].name}/bashrc`);
      assert.match(rc, /tmuxwright shell integration for bash/);
    });

    lab.setDelay({ delayMs: DELAY_MS });
    await server.call("execute_command", { pane_id: pane.pane_id, command: "true" }); // warm at this delay

    await t.step("execute_command on a warm pane: one round trip", async () => {
      for (let i = 0; i < 3; i++) {
        const { value, ms } = await timed(() =>
          server.call<ExecResult>("execute_command", { pane_id: pane.pane_id, command: `echo n=${i}` })
        );
        assert.equal(value.output, `n=${i}`);
        assert.ok(ms < 2 * RTT, `execute_command took ${Math.round(ms)} ms: more than one round trip (${RTT} ms)`);
      }
    });

    await t.step("send_keys with wait on a warm pane: one round trip", async () => {
      const { value, ms } = await timed(() =>
        server.call<{ trigger: string; output: string }>("send_keys", {
          pane_id: pane.pane_id,
          text: "echo keyed",
          wait: ["shell"],
        })
      );
      assert.equal(value.trigger, "shell", JSON.stringify(value));
      assert.match(value.output, /keyed/);
      assert.ok(ms < 2 * RTT, `send_keys with wait took ${Math.round(ms)} ms`);
    });

    await t.step("start_process on a fresh pane: ready within three round trips and the shell's start", async () => {
      const { value, ms } = await timed(() =>
        server.call<{ outcome: string; pane_id: string }>("start_process", {
          host: "alpha",
          command: "echo up-now",
          ready: "^up-now",
          timeout_ms: 30_000,
        })
      );
      assert.equal(value.outcome, "ready", JSON.stringify(value));
      assert.ok(
        ms < 3 * RTT + 3_000,
        `start_process took ${Math.round(ms)} ms (${(ms / RTT).toFixed(1)} round trips)`,
      );
    });

    lab.setDelay({ delayMs: 0 });
    await t.step("the start-up files are removed at shutdown", async () => {
      await server.close();
      await until(
        () =>
          [...Deno.readDirSync(socketDir)].filter((e) =>
            e.name.startsWith("tmuxwright-") && !e.name.startsWith(HOST_LOCK_NAME)
          ).map((e) => e.name),
        (left) => left.length === 0,
      );
    });
  },
});
