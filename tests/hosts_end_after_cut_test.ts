import assert from "node:assert/strict";
import { SshLab } from "./helpers/sshd.ts";
import { Fleet } from "../scripts/stress/fleet.ts";
import { Session } from "../scripts/stress/session.ts";

// Found by the randomized stress: an HTTP session that ended (DELETE) while its host's link was
// cut left its remote panes on the host until the server's lease ran out: the end killed nothing
// on a link that was down. It now dials the host once more.

Deno.test({
  name: "a session ended while its host's link was cut still removes its panes on the host",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const fleet = new Fleet(dir, lab, 60_000);
    try {
      await fleet.startHttp();
      const session = await Session.http(fleet);
      const created = await session.call("create_pane", { host: "alpha", name: "far", command: "sleep 300" });
      assert.equal(created.kind, "ok", JSON.stringify(created));
      const remote = async () =>
        (await lab.remoteTmux("alpha", "list-panes", "-a", "-F", "#{@tmuxwright_name}")).stdout;
      assert.match(await remote(), /far/);
      lab.relay("alpha").cut();
      await session.end(); // DELETE /mcp
      const deadline = performance.now() + 15_000;
      while (/far/.test(await remote()) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.doesNotMatch(await remote(), /far/, "the ended session's pane on the host is gone");
    } finally {
      await fleet.stopHttp();
      await fleet.killTmux();
      await lab.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
