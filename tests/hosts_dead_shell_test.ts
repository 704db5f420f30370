import assert from "node:assert/strict";
import { labServer } from "./helpers/lab_server.ts";
import { SshLab } from "./helpers/sshd.ts";

// A remote pane whose shell dies without a word on the link (the pane stays, dead): typing tools
// reuse the link's last lookup of a pane, and must not keep using it once tmux's pane-set
// subscription says the pane changed (within about a second).

Deno.test({
  name: "a remote pane whose shell dies silently: send_keys and execute_command say PANE_DEAD",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    await using server = await labServer(lab, ["alpha"]);
    const pane = await server.call<{ pane_id: string }>("create_pane", { host: "alpha", name: "doomed" });
    // Warm: the link now remembers the pane's lookup.
    await server.call("execute_command", { pane_id: pane.pane_id, command: "true" });
    await server.call("send_keys", { pane_id: pane.pane_id, text: "" });
    const id = pane.pane_id.slice("alpha:".length);
    const pid = Number((await lab.remoteTmux("alpha", "display-message", "-p", "-t", id, "#{pane_pid}")).stdout);
    Deno.kill(pid, "SIGKILL");
    // tmux looks at subscribed formats once a second.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const dead = (await lab.remoteTmux("alpha", "display-message", "-p", "-t", id, "#{pane_dead}")).stdout.trim();
    assert.equal(dead, "1", "the pane stays, dead");
    const keys = await server.callError("send_keys", { pane_id: pane.pane_id, text: "echo hi", enter: true });
    assert.match(keys, /PANE_DEAD/);
    const exec = await server.callError("execute_command", { pane_id: pane.pane_id, command: "true" });
    assert.match(exec, /PANE_DEAD/);
  },
});
