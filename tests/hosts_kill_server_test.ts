import assert from "node:assert/strict";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";

// kill_server on a host's own tmux server drops its link on purpose (no "lost" for that one), and
// the next call dials a new server. The link dialled then is like any other: when it drops, the
// calls in flight fail at once, naming the host.
Deno.test({
  name: "after kill_server on a host, the new link's drop still fails calls in flight at once",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    await using server = await labServer(lab, ["alpha"], { args: ["--tools", "all", "--safety", "destructive"] });
    await server.call("execute_command", { host: "alpha", command: "true" });
    const killed = await server.call<{ killed: boolean }>("kill_server", { host: "alpha" });
    assert.equal(killed.killed, true);
    const pane = await server.call<{ pane_id: string }>("create_pane", { host: "alpha", command: "sleep 600" });
    const inFlight = server.raw("wait_for_text", { pane_id: pane.pane_id, pattern: "never-x", timeout_ms: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cutAt = performance.now();
    lab.relay("alpha").blackhole();
    lab.relay("alpha").cut();
    const answer = await inFlight;
    const failedAfter = performance.now() - cutAt;
    assert.match(answer.text, /^HOST_UNREACHABLE: Host "alpha" \(alpha\) is unreachable: the connection dropped/);
    assert.ok(failedAfter < 3_000, `failed after ${Math.round(failedAfter)} ms`);
    lab.relay("alpha").heal();
  },
});
