import assert from "node:assert/strict";
import { HostRegistry } from "../src/engine/hosts/registry.ts";
import { LOCK_FUNCTIONS } from "../src/tmux/host_session_lock.ts";
import { until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";

/**
 * tmux 3.3a crashes when a session is created or removed while a control client attaches. On a
 * host, tmuxwright servers create their hubs as their links connect, remove them when they end,
 * and remove the hubs of gone servers (lease renewals), all while other links attach. Here four
 * loops at once connect links (each creating its hub) and end them as a server does (removing
 * it), and leave hubs of gone servers (made under the host's lock, as a link that died would
 * have made them: lease passed, no client) for the others' leases to reap. Without the host's
 * session lock this took the host's tmux server down in most runs.
 */
Deno.test({
  name: "links connecting, ending and reaping on one host at once never take its tmux server down",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const pidOfHost = async () => (await lab.remoteTmux("alpha", "display-message", "-p", "#{pid}")).stdout.trim();
    const registries: HostRegistry[] = [];
    const reaped: string[] = [];
    const registryFor = (hub: string) => {
      const registry = new HostRegistry(null, {
        hosts: [{ name: "alpha", destination: "alpha" }],
        sshConfig: lab.configFile,
        hubSession: hub,
        lease: { ttlSec: 1, onReaped: (_host, sessions) => reaped.push(...sessions) },
      });
      registries.push(registry);
      return registry;
    };
    // A hub whose server's link died long ago: its lease passed, no client attached.
    const goneServersHub = async (hub: string) => {
      const made = await new Deno.Command("sh", {
        args: [
          "-c",
          `${LOCK_FUNCTIONS}; tw_lock 500 || exit 75; "$@"; s=$?; tw_unlock; exit "$s"`,
          "sh",
          ...["tmux", "new-session", "-d", "-s", hub, ";", "set-option", "-t", `=${hub}:`, "@tmuxwright_lease", "1"],
        ],
        env: { TMUX_TMPDIR: lab.tmuxTmpdir("alpha") },
      }).output();
      assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
    };
    try {
      const keeper = registryFor("tmuxwright-link-keeper");
      await keeper.link("alpha").connect();
      const pid = await pidOfHost();
      assert.match(pid, /^\d+$/);
      const loop = async (worker: number) => {
        for (let i = 0; i < 10; i++) {
          const registry = registryFor(`tmuxwright-link-w${worker}-${i}`);
          const link = registry.link("alpha");
          await link.connect();
          await link.run("display-message", "-p", "up");
          await registry.close();
          await goneServersHub(`tmuxwright-link-gone-w${worker}-${i}`);
        }
      };
      await Promise.all([0, 1, 2, 3].map(loop));
      assert.equal(await pidOfHost(), pid, "the host's tmux server was restarted: it crashed");
      // The hubs left behind are reaped once their lease (1 s, counted in whole seconds) has passed.
      const sessions = () => lab.remoteTmux("alpha", "list-sessions", "-F", "#{session_name}");
      await until(sessions, (listed) => listed.stdout.trim() === "tmuxwright-link-keeper", 6000);
      assert.ok(reaped.length > 0, "leases reaped the hubs left behind");
    } finally {
      await Promise.all(registries.map((r) => r.close()));
      await lab.close();
    }
  },
});

Deno.test({
  name: "with --keep a server's end leaves its hub on the host, marked kept, its link's client detached",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const registry = new HostRegistry(null, {
      hosts: [{ name: "alpha", destination: "alpha" }],
      sshConfig: lab.configFile,
      hubSession: "tmuxwright-link-kept",
      keep: true,
    });
    try {
      await registry.link("alpha").connect();
      const clients = () => lab.remoteTmux("alpha", "list-clients", "-F", "#{session_name}");
      assert.equal((await clients()).stdout.trim(), "tmuxwright-link-kept");
      const started = performance.now();
      await registry.close();
      assert.ok(performance.now() - started < 1_000, "the end waited for nothing");
      assert.equal((await clients()).stdout.trim(), "", "its client is gone");
      const kept = await lab.remoteTmux(
        "alpha",
        "show-options",
        "-v",
        "-t",
        "=tmuxwright-link-kept:",
        "@tmuxwright_kept",
      );
      assert.equal(kept.stdout.trim(), "1");
    } finally {
      await registry.close();
      await lab.close();
    }
  },
});

Deno.test({
  name: "a lease renewal never holds its link's commands waiting for a busy host lock: it reaps on a later turn",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const registry = new HostRegistry(null, {
      hosts: [{ name: "alpha", destination: "alpha" }],
      sshConfig: lab.configFile,
      hubSession: "tmuxwright-link-busy",
      lease: { ttlSec: 1, onReaped: () => {} }, // a renewal (and a reaping) every 333 ms
    });
    try {
      const link = registry.link("alpha");
      await link.connect();
      // Someone holds the host's lock for 5 s (another server's step, slow on a loaded host).
      const held = new Deno.Command("sh", {
        args: ["-c", `${LOCK_FUNCTIONS}; tw_lock 500 && sleep 5; tw_unlock`],
        env: { TMUX_TMPDIR: lab.tmuxTmpdir("alpha") },
      }).spawn();
      await new Promise((resolve) => setTimeout(resolve, 300)); // the holder has it
      let slowest = 0;
      for (const until = performance.now() + 4_000; performance.now() < until;) {
        const started = performance.now();
        await link.run("display-message", "-p", "up");
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await held.status;
      assert.ok(slowest < 1_000, `a command waited ${Math.round(slowest)} ms behind the renewal`);
    } finally {
      await registry.close();
      await lab.close();
    }
  },
});

/**
 * A server killed mid-work, or a dropped connection, ends its link with nobody to say goodbye:
 * ssh dies, and its client on the host ends. The link script there sees its input end and ends
 * the client under the host's lock; a client whose input was ssh's own would end at once,
 * unguarded, while other links attach (a tmux 3.3a crash). Here links are dropped (ssh killed)
 * while others connect and end cleanly, on one host.
 */
Deno.test({
  name: "links dropped by a killed ssh end under the host's lock while others attach",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const pidOfHost = async () => (await lab.remoteTmux("alpha", "display-message", "-p", "#{pid}")).stdout.trim();
    const registries: HostRegistry[] = [];
    try {
      const keeper = new HostRegistry(null, {
        hosts: [{ name: "alpha", destination: "alpha" }],
        sshConfig: lab.configFile,
        hubSession: "tmuxwright-link-keeper",
      });
      registries.push(keeper);
      await keeper.link("alpha").connect();
      const pid = await pidOfHost();
      const loop = async (worker: number, drop: boolean) => {
        for (let i = 0; i < 12; i++) {
          const registry = new HostRegistry(null, {
            hosts: [{ name: "alpha", destination: "alpha" }],
            sshConfig: lab.configFile,
            hubSession: `tmuxwright-link-d${worker}-${i}`,
          });
          registries.push(registry);
          const link = registry.link("alpha");
          await link.connect();
          await link.run("display-message", "-p", "up");
          if (drop) link.kill();
          await registry.close();
        }
      };
      await Promise.all([loop(0, true), loop(1, false), loop(2, true)]);
      assert.equal(await pidOfHost(), pid, "the host's tmux server was restarted: it crashed");
      // Every dropped link's client is gone too: only the keeper's is left.
      await until(
        () => lab.remoteTmux("alpha", "list-clients", "-F", "#{session_name}"),
        (clients) => clients.stdout.trim() === "tmuxwright-link-keeper",
        10_000,
      );
    } finally {
      await Promise.all(registries.map((r) => r.close()));
      await lab.close();
    }
  },
});

/**
 * The crash window held open on purpose: a link (through `slowalpha`) whose tmux client takes
 * 1.5 s over each message of its identify, while another server's link on the same tmux server
 * is dropped (ssh killed) and a third ends cleanly. The drop's end and the clean end both tell
 * every control client; tmux 3.3a crashes if that reaches the slow client before it has
 * identified. The slow link holds the host's lock over its attach, and every end waits for it.
 */
Deno.test({
  name: "a link dropped or ended while another link identifies slowly waits for it: the host's tmux lives",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const pidOfHost = async () => (await lab.remoteTmux("alpha", "display-message", "-p", "#{pid}")).stdout.trim();
    const registryFor = (hub: string, destination = "alpha") =>
      new HostRegistry(null, { hosts: [{ name: "alpha", destination }], sshConfig: lab.configFile, hubSession: hub });
    const dropped = registryFor("tmuxwright-link-dropped");
    const ended = registryFor("tmuxwright-link-ended");
    const slow = registryFor("tmuxwright-link-slow", "slowalpha");
    try {
      await dropped.link("alpha").connect();
      await ended.link("alpha").connect();
      const pid = await pidOfHost();
      const connecting = slow.link("alpha").connect();
      // The slow client is running (under strace) and not yet listed: it is identifying.
      await until(
        () => new Deno.Command("pgrep", { args: ["-f", "attach-session -t =tmuxwright-link-slow"] }).output(),
        (found) => found.code === 0,
        10_000,
      );
      dropped.link("alpha").kill();
      await Promise.all([dropped.close(), ended.close()]);
      await connecting;
      assert.equal(await pidOfHost(), pid, "the host's tmux server crashed");
      await slow.link("alpha").run("display-message", "-p", "up");
    } finally {
      await Promise.all([dropped.close(), ended.close(), slow.close()]);
      await lab.close();
    }
  },
});
