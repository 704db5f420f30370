import assert from "node:assert/strict";
import { type TestServer, until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { PodmanLab } from "./helpers/podman.ts";
import { labServer } from "./helpers/lab_server.ts";
import { type Leftovers, startLeftovers } from "./helpers/leftovers.ts";

// A server's link to a host that ends without a goodbye (the server SIGKILLed; a connection that
// drops and does not come back) leaves nothing there once its lease has passed: the host's side
// of the link (its script) waits out the lease, sees no client back on the hub, and ends the hub
// with every process started in it, even with no other tmuxwright server around to reap it.
// A clean end takes the processes at once; --keep keeps them and says so on the hub.

const LEASE_SEC = 4;

interface Host {
  name: string;
  hubs(): Promise<string[]>;
  kept(hub: string): Promise<string>;
}

function sshHost(lab: SshLab): Host {
  const tmux = (...args: string[]) => lab.remoteTmux("alpha", ...args);
  return {
    name: "alpha",
    hubs: async () => hubsIn((await tmux("list-sessions", "-F", "#{session_name}")).stdout),
    kept: async (hub) => (await tmux("show-options", "-v", "-t", `=${hub}:`, "@tmuxwright_kept")).stdout.trim(),
  };
}

function containerHost(lab: PodmanLab, container: string): Host {
  const tmux = (...args: string[]) => lab.tmux(container, ...args);
  return {
    name: "box",
    hubs: async () => hubsIn((await tmux("list-sessions", "-F", "#{session_name}")).stdout),
    kept: async (hub) => (await tmux("show-options", "-v", "-t", `=${hub}:`, "@tmuxwright_kept")).stdout.trim(),
  };
}

function hubsIn(listed: string): string[] {
  return listed.split("\n").filter((name) => name.startsWith("tmuxwright-link-"));
}

/** The server's hub on the host, with work left running in it. */
async function workOn(server: TestServer, host: Host): Promise<{ hub: string; left: Leftovers }> {
  const left = startLeftovers();
  await server.call("create_pane", { host: host.name, name: "fg", command: left.foreground });
  const ran = await server.call<{ output: string }>("execute_command", {
    host: host.name,
    command: `${left.background}; echo started`,
  });
  assert.match(ran.output, /started$/);
  await until(() => left.running(), (pids) => pids.length === 3, 15_000);
  const hub = (await host.hubs()).find((name) => name.startsWith(`tmuxwright-link-${server.pid}-`));
  assert.ok(hub, "the server's hub");
  return { hub, left };
}

/** Waits for the hub and the processes to be gone; how long that took from `since`, in seconds. */
async function goneAfter(host: Host, hub: string, left: Leftovers, since: number, withinSec: number) {
  await until(() => host.hubs(), (hubs) => !hubs.includes(hub), withinSec * 1000);
  await until(() => left.running(), (pids) => pids.length === 0, 5_000);
  return (performance.now() - since) / 1000;
}

async function killedServer(host: Host, server: TestServer) {
  const { hub, left } = await workOn(server, host);
  try {
    const killed = performance.now();
    Deno.kill(server.pid, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.ok((await host.hubs()).includes(hub), "kept while its lease runs");
    const after = await goneAfter(host, hub, left, killed, LEASE_SEC + 10);
    console.log(`${host.name}: SIGKILL, hub and processes gone after ${after.toFixed(1)} s (lease ${LEASE_SEC} s)`);
    assert.ok(after <= LEASE_SEC + 4, `${after.toFixed(1)} s`);
  } finally {
    left.kill();
  }
}

async function cleanEnd(host: Host, server: TestServer) {
  const { hub, left } = await workOn(server, host);
  try {
    const closed = performance.now();
    await server.close(false);
    const after = await goneAfter(host, hub, left, closed, 10);
    console.log(`${host.name}: clean end, hub and processes gone after ${after.toFixed(1)} s`);
  } finally {
    left.kill();
  }
}

const LEASE = { env: { TMUXWRIGHT_HOST_LEASE: String(LEASE_SEC) } };

Deno.test({
  name: "an ssh host: a server killed, a link dropped for good, a clean end: nothing left; --keep keeps",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    const host = sshHost(lab);
    await t.step("SIGKILL: the hub and its processes go once the lease has passed", async () => {
      await using server = await labServer(lab, ["alpha"], LEASE);
      await killedServer(host, server);
    });
    await t.step("a connection that drops and does not come back within the lease: the same", async () => {
      await using server = await labServer(lab, ["alpha"], LEASE);
      const { hub, left } = await workOn(server, host);
      try {
        const relay = lab.relay("alpha");
        relay.blackhole(); // the server cannot dial again
        relay.cut(); // the host sees its link end
        const cut = performance.now();
        const after = await goneAfter(host, hub, left, cut, LEASE_SEC + 10);
        console.log(`alpha: link cut for good, hub and processes gone after ${after.toFixed(1)} s`);
        relay.heal();
      } finally {
        left.kill();
      }
    });
    await t.step("a connection that drops and comes back within the lease keeps everything", async () => {
      await using server = await labServer(lab, ["alpha"], LEASE);
      const { hub, left } = await workOn(server, host);
      try {
        lab.relay("alpha").cut();
        // Idle past two leases: its renewals dial the link again.
        await new Promise((resolve) => setTimeout(resolve, (LEASE_SEC * 2 + 2) * 1000));
        assert.ok((await host.hubs()).includes(hub));
        assert.equal((await left.running()).length, 3);
      } finally {
        left.kill();
      }
    });
    await t.step("a clean end takes the processes that ignore the hang-up at once", async () => {
      const server = await labServer(lab, ["alpha"], LEASE);
      await cleanEnd(host, server);
    });
    await t.step("--keep: a killed server's hub is kept on purpose (marked), with its processes", async () => {
      await using server = await labServer(lab, ["alpha"], { ...LEASE, args: ["--keep"] });
      const { hub, left } = await workOn(server, host);
      try {
        assert.equal(await host.kept(hub), "1", "marked kept from the start");
        Deno.kill(server.pid, "SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, (LEASE_SEC + 3) * 1000));
        assert.ok((await host.hubs()).includes(hub));
        assert.equal((await left.running()).length, 3);
      } finally {
        left.kill();
      }
    });
  },
});

Deno.test({
  name: "a Podman container: a server killed, a clean end: nothing left in the container",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await PodmanLab.start();
    const box = await lab.container("box");
    const host = containerHost(lab, box);
    await t.step("SIGKILL: the hub and its processes go once the lease has passed", async () => {
      await using server = await labServer(lab, { box: `podman://${box}` }, LEASE);
      await killedServer(host, server);
    });
    await t.step("a clean end takes the processes that ignore the hang-up at once", async () => {
      const server = await labServer(lab, { box: `podman://${box}` }, LEASE);
      await cleanEnd(host, server);
    });
  },
});
