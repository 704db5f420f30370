import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { linkProcesses, PodmanLab } from "./helpers/podman.ts";
import { labServer } from "./helpers/lab_server.ts";
import { killAndAwaitLease } from "./helpers/lease_reap.ts";
import { policyFile, removePolicyFile } from "./helpers/policy.ts";
import type { ExecResult, LogTail } from "./helpers/results.ts";
import { armWaits } from "./helpers/pane_end_matrix.ts";

/** Real Podman containers as hosts (tests/helpers/podman.ts): the server's links are `podman exec -i`. */

/** How often the server has logged that `host`'s link dropped: what the server noticed, not a guess. */
function losses(server: TestServer, host: string): number {
  return server.stderr.join("").split(`control connection to host ${host} lost`).length - 1;
}

/** A call that must fail: its text and how long it took. */
async function failing(server: TestServer, tool: string, args: Record<string, unknown>) {
  const started = performance.now();
  const result = await server.raw(tool, args);
  assert.equal(result.isError, true, `${tool} succeeded: ${result.text}`);
  return { text: result.text, ms: performance.now() - started };
}

Deno.test({
  name: "a Podman container as a host: the tools inside it, its errors, a stop, a restart, the policy",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await PodmanLab.start();
    const [dev, bare] = await Promise.all([lab.container("dev"), lab.container("bare", { tmux: false })]);
    const ghost = lab.missing("ghost");
    const policy = await policyFile({ default: "allow", deny: ["touch *"] });
    const hosts = { dev: `podman://${dev}`, bare: `podman://${bare}`, ghost: `podman://${ghost}` };
    const server = await labServer(lab, hosts, { env: { TMUXWRIGHT_POLICY: policy } });
    try {
      let web = "";
      await t.step("a command runs inside the container (its PID 1), in the container's own tmux", async () => {
        const created = await server.call<Record<string, string>>("create_pane", { host: "dev", name: "web" });
        assert.match(created.pane_id, /^dev:%\d+$/);
        web = created.pane_id;
        const inside = await server.call<ExecResult>("execute_command", {
          pane_id: web,
          command: "tr '\\0' ' ' </proc/1/cmdline; echo; echo \"${TMUX%%,*}\"; (exit 3)",
        });
        assert.equal(inside.output, "/usr/bin/sleep infinity\n/tmp/tmux-0/default");
        assert.equal(inside.exit_code, 3);
        const there = await lab.tmux(dev, "list-panes", "-a", "-F", "#{pane_id} #{@tmuxwright_name}");
        assert.match(there.stdout, new RegExp(`^${web.slice("dev:".length)} web$`, "m"));
        const here = await server.tmux("list-panes", "-a", "-F", "#{@tmuxwright_name}");
        assert.ok(!/^web$/m.test(here.stdout), here.stdout);
        // The session lock is the container's (in its /tmp): held there by its PID 1 for 1.5 s, a kill waits for it.
        const spare = await server.call<{ pane_id: string }>("create_pane", { host: "dev" });
        await lab.sh(
          dev,
          "ln -s pid:1 /tmp/tmux-0/tmuxwright-lock && { sleep 1.5; rm /tmp/tmux-0/tmuxwright-lock; } &",
        );
        const killing = performance.now();
        await server.call("kill_pane", { pane_id: spare.pane_id });
        assert.ok(performance.now() - killing >= 1_200, "the kill did not wait for the container's lock");
      });

      await t.step("start_process readiness, read_logs and search_panes on a container pane", async () => {
        const started = await server.call<Record<string, unknown>>("start_process", {
          host: "dev",
          name: "svc",
          command: "sleep 0.3; echo 'listening on 8080'; sleep 600",
          ready: "listening on \\d+",
          timeout_ms: 20_000,
        });
        assert.equal(started.outcome, "ready", JSON.stringify(started));
        const state = await server.call<Record<string, unknown>>("pane_state", { pane_id: "dev:svc" });
        assert.equal(state.foreground_command, "sleep", JSON.stringify(state));
        const logs = await server.call<LogTail>("read_logs", { pane_id: "dev:svc" });
        assert.match(logs.content, /listening on 8080/);
        await server.call("execute_command", { command: "echo local-needle" });
        const found = await server.call<{ matches: Record<string, unknown>[] }>("search_panes", {
          pattern: "listening on|local-needle",
          regex: true,
        });
        assert.deepEqual(found.matches.map((m) => `${m.host}`).sort(), ["dev", "local"], JSON.stringify(found));
      });

      await t.step("the command policy judges a container pane before anything reaches it", async () => {
        const denied = await failing(server, "execute_command", { pane_id: web, command: "touch /tmp/denied" });
        assert.match(denied.text, /^POLICY_DENIED/);
        assert.equal(await lab.sh(dev, "test -e /tmp/denied && echo there || echo absent"), "absent\n");
      });

      await t.step("the runtime gets DOCKER_HOST, CONTAINER_HOST, DOCKER_CONTEXT and nothing else", () => {
        const [link] = linkProcesses(server.pid, "podman");
        assert.deepEqual(link.args.slice(1, 5), ["exec", "-i", "--detach-keys=", dev]);
        assert.deepEqual(link.env, {}, "the test's environment sets none of them");
      });

      await t.step("errors: a missing container, a container without tmux", async () => {
        const missing = await failing(server, "create_pane", { host: "ghost" });
        assert.match(
          missing.text,
          new RegExp(`^HOST_UNREACHABLE: Host "ghost" \\(podman://${ghost}\\) is unreachable`),
        );
        assert.match(missing.text, new RegExp(`container "${ghost}": Error: no container with name or ID`));
        assert.ok(missing.ms < 5_000, `${missing.ms} ms`);
        console.log(`missing container: HOST_UNREACHABLE after ${missing.ms.toFixed(0)} ms`);
        // Only configured names: nothing a tool passes reaches podman's command line.
        for (const host of [`podman://${dev}`, dev, "dev; id", "--help"]) {
          assert.match((await failing(server, "create_pane", { host })).text, /^HOST_NOT_CONFIGURED/, host);
        }
        const noTmux = await failing(server, "create_pane", { host: "bare" });
        assert.match(noTmux.text, new RegExp(`^TMUX_UNAVAILABLE: tmux is not installed .* container "${bare}"`));
        assert.match(noTmux.text, /add tmux 3\.2 or newer to the image/i);
      });

      await t.step(
        "the link drops (its exec killed): calls fail fast, the next reconnects, the log heals",
        async () => {
          const counter = await server.call<Record<string, string>>("create_pane", {
            host: "dev",
            command:
              'sleep 0.5; for i in $(seq 1 200); do echo "n=$i"; sleep 0.01; done; echo done-counting; sleep 600',
          });
          await server.call("wait_for_text", { pane_id: counter.pane_id, pattern: "n=20$", regex: true });
          const inFlight = server.raw("wait_for_text", {
            pane_id: counter.pane_id,
            pattern: "never-x",
            timeout_ms: 60_000,
          });
          const [link] = linkProcesses(server.pid, "podman");
          const cutAt = performance.now();
          Deno.kill(link.pid, "SIGKILL");
          const error = await inFlight;
          assert.match(
            error.text,
            /^HOST_UNREACHABLE: Host "dev" \(podman:\/\/[^)]+\) is unreachable: the connection dropped/,
          );
          assert.ok(performance.now() - cutAt < 5_000);
          await server.call("wait_for_text", {
            pane_id: counter.pane_id,
            pattern: "done-counting",
            since: "screen",
            timeout_ms: 30_000,
          });
          const log = await server.call<LogTail>("read_logs", {
            pane_id: counter.pane_id,
            lines: 1000,
            max_output: 1e5,
          });
          const numbers = log.content.split("\n").map((line) => /^n=(\d+)$/.exec(line.trim())?.[1]).filter(Boolean);
          assert.deepEqual(numbers.map(Number), Array.from({ length: 200 }, (_, i) => i + 1), log.content);
        },
      );

      await t.step("the container stopped mid-work: a fast coded error, local panes unaffected", async () => {
        const inFlight = server.raw("wait_for_text", { pane_id: web, pattern: "never-y", timeout_ms: 60_000 });
        const stoppedAt = performance.now();
        await lab.stop(dev);
        const error = await inFlight;
        const failedAfter = performance.now() - stoppedAt;
        assert.match(error.text, /^HOST_UNREACHABLE: Host "dev"/);
        assert.ok(failedAfter < 5_000, `${failedAfter} ms`);
        console.log(`container stopped: the call in flight failed after ${failedAfter.toFixed(0)} ms (stop included)`);
        const local = await server.call<ExecResult>("execute_command", { command: "echo still-here" });
        assert.equal(local.output, "still-here");
        const next = await failing(server, "create_pane", { host: "dev" });
        assert.match(next.text, new RegExp(`^HOST_UNREACHABLE: .*container "${dev}": Error: can only create exec`));
        assert.ok(next.ms < 5_000, `${next.ms} ms`);
        console.log(`stopped container: HOST_UNREACHABLE after ${next.ms.toFixed(0)} ms`);
      });

      await t.step("started again: reached by a later call; the panes from before are PANE_GONE", async () => {
        await lab.startAgain(dev);
        // One failed dial set a back-off of 250 ms: the next call after it reconnects.
        const fresh = await until(() => server.raw("create_pane", { host: "dev", name: "again" }), (r) => !r.isError);
        const again = JSON.parse(fresh.text) as Record<string, string>;
        const gone = await failing(server, "execute_command", { pane_id: "dev:svc", command: "true" });
        assert.match(gone.text, /^PANE_GONE: Pane "svc" is gone: the tmux server of host dev was restarted/);
        const byId = await failing(server, "capture_pane", { pane_id: "dev:%99" });
        assert.match(byId.text, /^PANE_GONE: Pane "%99" is gone: the tmux server of host dev was restarted/);
        const works = await server.call<ExecResult>("execute_command", {
          pane_id: again.pane_id,
          command: "echo back",
        });
        assert.equal(works.output, "back");
      });

      await t.step("a restarted container is reached again by the next call", async () => {
        const before = losses(server, "dev");
        await lab.podman("restart", "-t", "0", dev);
        // The restart ended the link's exec (a call racing that end fails as a drop); the next call reconnects.
        await until(() => losses(server, "dev"), (n) => n > before);
        const next = await server.raw("create_pane", { host: "dev" });
        assert.equal(next.isError, false, next.text);
      });
    } finally {
      await server.close();
      await removePolicyFile(policy);
    }
  },
});

Deno.test({
  name: "docker:// through the real Docker CLI against Podman's Docker API: inside the container, only DOCKER_HOST",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await PodmanLab.start();
    const dockerHost = await lab.docker();
    const box = await lab.container("box");
    await using server = await labServer(lab, { box: `docker://${box}` }, {
      env: { DOCKER_HOST: dockerHost, UNRELATED_SECRET: "s3cret" },
    });
    await t.step("a command runs inside the container through docker exec", async () => {
      const created = await server.call<Record<string, string>>("create_pane", { host: "box" });
      const inside = await server.call<ExecResult>("execute_command", {
        pane_id: created.pane_id,
        command: "tr '\\0' ' ' </proc/1/cmdline; echo; hostname >/dev/null; echo \"${TMUX%%,*}\"",
      });
      assert.equal(inside.output, "/usr/bin/sleep infinity\n/tmp/tmux-0/default");
      const there = await lab.tmux(box, "list-panes", "-a", "-F", "#{pane_id}");
      assert.match(there.stdout, new RegExp(`^${created.pane_id.slice("box:".length)}$`, "m"));
    });

    await t.step("the Docker CLI gets DOCKER_HOST and nothing else of the server's environment", () => {
      const [link] = linkProcesses(server.pid, "docker");
      assert.deepEqual(link.args.slice(1, 5), ["exec", "-i", "--detach-keys=", box]);
      assert.deepEqual(link.env, { DOCKER_HOST: dockerHost });
    });

    await t.step("stopped: HOST_UNREACHABLE with the daemon's own message, fast", async () => {
      const before = losses(server, "box");
      await lab.stop(box);
      // The stop ends the link's exec (a call racing that end fails as a drop); then a call dials again.
      await until(() => losses(server, "box"), (n) => n > before);
      const error = await failing(server, "create_pane", { host: "box" });
      assert.match(
        error.text,
        new RegExp(`^HOST_UNREACHABLE: Host "box" \\(docker://${box}\\) is unreachable: docker`),
      );
      assert.match(error.text, /Error response from daemon: /);
      assert.ok(error.ms < 5_000, `${error.ms} ms`);
      console.log(`docker, stopped container: HOST_UNREACHABLE after ${error.ms.toFixed(0)} ms`);
    });
  },
});

Deno.test({
  name: "two servers on one container: each its own hub there; a gone server's is reaped after its lease",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const LEASE_SEC = 4;
    await using lab = await PodmanLab.start();
    const dev = await lab.container("dev");
    const lease = { env: { TMUXWRIGHT_HOST_LEASE: String(LEASE_SEC) } };
    const hosts = { dev: `podman://${dev}` };
    const [first, second] = await Promise.all([labServer(lab, hosts, lease), labServer(lab, hosts, lease)]);
    const hubs = async () =>
      (await lab.tmux(dev, "list-sessions", "-F", "#{session_name}")).stdout.split("\n")
        .filter((name) => name.startsWith("tmuxwright-link-"));
    try {
      // Both dial the container at once: their hubs are made under the session lock there.
      const [a, b] = await Promise.all([
        first.call<Record<string, string>>("create_pane", { host: "dev", name: "web", command: "sleep 600" }),
        second.call<Record<string, string>>("create_pane", { host: "dev", name: "web", command: "sleep 600" }),
      ]);
      assert.notEqual(a.pane_id, b.pane_id);
      const gone = (await hubs()).find((h) => h.startsWith(`tmuxwright-link-${first.pid}-`));
      assert.ok(gone && (await hubs()).some((h) => h.startsWith(`tmuxwright-link-${second.pid}-`)));
      await killAndAwaitLease(first, gone!, LEASE_SEC, {
        hubs,
        clients: async () => (await lab.tmux(dev, "list-clients", "-F", "#{session_name}")).stdout,
      });
      const mine = await second.call<Record<string, unknown>>("pane_state", { pane_id: b.pane_id });
      assert.equal(mine.alive, true);
    } finally {
      await first.close();
      await second.close();
    }
  },
});

Deno.test({
  name: "every kind of wait on a container pane ends within 2 s when its program exits",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await PodmanLab.start();
    const dev = await lab.container("dev");
    await using server = await labServer(lab, { dev: `podman://${dev}` });
    // No hook of this server runs in the container: its once-a-second look at the panes there does.
    const exiting = await armWaits(server, true, "dev");
    const exitsAt = performance.now() + 2_000;
    for (const w of exiting.waits) {
      const r = await w.done;
      const after = Math.round(r.at - exitsAt);
      assert.ok(after < 2_000, `${w.wait} on dev ended ${after} ms after the exit: ${r.text}`);
      assert.equal(r.isError, false, `${w.wait}: ${r.text}`);
      assert.match(r.text, /"exit_code":3/, `${w.wait}: ${r.text}`);
    }
  },
});
