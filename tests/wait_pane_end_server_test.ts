import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import { armWaits, type InFlight } from "./helpers/pane_end_matrix.ts";

/**
 * Every kind of wait in flight ends within 2 s (each asked for 30 s) when the tmux server dies
 * (TMUX_UNAVAILABLE; the next call reconnects) or its remote host's link drops (HOST_UNREACHABLE).
 */
const WITHIN_MS = 2_000;

async function endedBy(waits: InFlight[], at: number, code: RegExp): Promise<void> {
  for (const w of waits) {
    const r = await w.done;
    const after = Math.round(r.at - at);
    assert.ok(after < WITHIN_MS, `${w.wait} ended ${after} ms after the event: ${r.text}`);
    assert.equal(r.isError, true, `${w.wait}: ${r.text}`);
    assert.match(r.text, code, `${w.wait}: ${r.text}`);
  }
}

Deno.test("every wait ends within 2 s with TMUX_UNAVAILABLE when the tmux server dies; the next call reconnects", async () => {
  await using server = await TestServer.start();
  const armed = await armWaits(server, false);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const at = performance.now();
  await server.tmux("kill-server");
  await endedBy(armed.waits, at, /^TMUX_UNAVAILABLE: /);
  const again = await server.call<{ output: string }>("execute_command", { command: "echo back" });
  assert.equal(again.output, "back");
});

Deno.test({
  name:
    "every wait on a remote pane ends within 2 s when its program exits, and with HOST_UNREACHABLE when the link drops",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    await using server = await labServer(lab, ["alpha"], { dir });
    // A program's exit on a host: no hook reaches this server there; its once-a-second check does.
    const exiting = await armWaits(server, true, "alpha");
    const exitsAt = performance.now() + 2_000;
    for (const w of exiting.waits) {
      const r = await w.done;
      const after = Math.round(r.at - exitsAt);
      assert.ok(after < WITHIN_MS, `${w.wait} on alpha ended ${after} ms after the exit: ${r.text}`);
      assert.equal(r.isError, false, `${w.wait}: ${r.text}`);
      assert.match(r.text, /"exit_code":3/, `${w.wait}: ${r.text}`);
    }
    const armed = await armWaits(server, false, "alpha");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const at = performance.now();
    lab.relay("alpha").blackhole();
    lab.relay("alpha").cut();
    await endedBy(armed.waits, at, /^HOST_UNREACHABLE: Host "alpha"/);
  },
});
