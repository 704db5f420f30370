import assert from "node:assert/strict";
import type { TestServer } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import { killAndAwaitLease } from "./helpers/lease_reap.ts";

const LEASE_SEC = 4;

function serverFor(lab: SshLab): Promise<TestServer> {
  return labServer(lab, ["alpha"], { env: { TMUXWRIGHT_HOST_LEASE: String(LEASE_SEC) } });
}

async function hubsOn(lab: SshLab): Promise<string[]> {
  const listed = await lab.remoteTmux("alpha", "list-sessions", "-F", "#{session_name}");
  return listed.stdout.split("\n").filter((name) => name.startsWith("tmuxwright-link-"));
}

const hubOf = (hubs: string[], server: TestServer) => hubs.find((h) => h.startsWith(`tmuxwright-link-${server.pid}-`));

Deno.test({
  name:
    "two servers on one remote tmux server: own names, never each other's panes; a gone server's are reaped after its lease",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    await using first = await serverFor(lab);
    await using second = await serverFor(lab);
    const [a, b] = await Promise.all([
      first.call<Record<string, string>>("create_pane", { host: "alpha", name: "web", command: "sleep 600" }),
      second.call<Record<string, string>>("create_pane", { host: "alpha", name: "web", command: "sleep 600" }),
    ]);

    await t.step("each server has its own hub on the host and its own `web`", async () => {
      assert.notEqual(a.pane_id, b.pane_id);
      const hubs = await hubsOn(lab);
      assert.ok(hubOf(hubs, first) && hubOf(hubs, second), hubs.join(", "));
      const seen = await second.call<{ panes: Record<string, unknown>[] }>("list_panes", { host: "alpha" });
      const theirs = seen.panes.find((p) => p.pane_id === a.pane_id);
      assert.equal(theirs?.owned, false, JSON.stringify(seen.panes));
      const mine = await second.call<Record<string, unknown>>("pane_state", { pane_id: "alpha:web" });
      assert.equal(mine.pane_id, b.pane_id);
      const killed = await second.callError("kill_pane", { pane_id: a.pane_id });
      assert.match(killed, /TIER_DENIED|PROTECTED_TARGET/);
    });

    await t.step("idle past several leases, both stay: their links are attached and renew", async () => {
      await new Promise((resolve) => setTimeout(resolve, (LEASE_SEC * 2 + 1) * 1000));
      const hubs = await hubsOn(lab);
      assert.ok(hubOf(hubs, first) && hubOf(hubs, second), hubs.join(", "));
    });

    await t.step("a server that dies keeps its panes for the lease, then the other server reaps them", async () => {
      const gone = hubOf(await hubsOn(lab), first)!;
      await killAndAwaitLease(first, gone, LEASE_SEC, {
        hubs: () => hubsOn(lab),
        clients: async () => (await lab.remoteTmux("alpha", "list-clients", "-F", "#{session_name}")).stdout,
      });
      // The live server's pane is untouched.
      const mine = await second.call<Record<string, unknown>>("pane_state", { pane_id: b.pane_id });
      assert.equal(mine.alive, true);
    });
  },
});
