import assert from "node:assert/strict";
import { HostRegistry, type HostRegistryOptions } from "../src/engine/hosts/mod.ts";
import { type ToolError, toToolError } from "../src/engine/errors.ts";
import { TmuxServer } from "../src/tmux/server.ts";
import { SshLab } from "./helpers/sshd.ts";
import { ProcessFacts } from "../src/engine/facts/mod.ts";

const LAB_HOSTS = ["alpha", "beta", "stranger", "changed", "notmux", "oldtmux", "nowhere"];

/** A registry over the lab's hosts (each name maps to the lab's ssh config alias of the same name). */
function registry(lab: SshLab, local: TmuxServer, timing?: HostRegistryOptions["timing"]): HostRegistry {
  return new HostRegistry(local, {
    hosts: LAB_HOSTS.map((name) => ({ name, destination: name })),
    sshConfig: lab.configFile,
    hubSession: `tmuxwright-link-test-${crypto.randomUUID().slice(0, 8)}`,
    timing,
  });
}

async function failure(call: Promise<unknown>): Promise<{ error: ToolError; ms: number }> {
  const started = performance.now();
  try {
    await call;
  } catch (error) {
    return { error: toToolError(error), ms: performance.now() - started };
  }
  throw new Error("the call succeeded");
}

// A socket path, not a name: tmux leaves its socket behind at kill-server, and the test removes it.
const LOCAL_SOCKET = `/tmp/tw-hosts-test-${Deno.pid}.sock`;
const LOCAL = new TmuxServer(["-S", LOCAL_SOCKET], () => Promise.resolve("unused"));

Deno.test({
  name: "host links over real OpenSSH",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const lab = await SshLab.start();
    const hosts = registry(lab, LOCAL);
    try {
      await t.step("two hosts, two remote tmux servers, one control connection each", async () => {
        const [alpha, beta] = [hosts.link("alpha"), hosts.link("beta")];
        assert.equal(hosts.link("alpha"), alpha, "one link per host");
        const [a] = await alpha.run("display-message", "-p", "#{socket_path} #{session_name} #{version}");
        const [b] = await beta.run("display-message", "-p", "#{socket_path}");
        assert.ok(a.startsWith(lab.tmuxTmpdir("alpha")), a);
        assert.ok(b.startsWith(lab.tmuxTmpdir("beta")), b);
        assert.match(a, / tmuxwright-link-test-\w+ 3\.\d/);
        // The remote servers hold the hub session; the control client is the only client.
        const clients = await lab.remoteTmux("alpha", "list-clients", "-F", "#{client_control_mode} #{session_name}");
        assert.match(clients.stdout, /^1 tmuxwright-link-test-\w+$/m);
        assert.equal(lab.relay("alpha").connections, 1);
        await Promise.all([alpha.run("display-message", "-p", "x"), alpha.run("list-sessions")]);
        assert.equal(lab.relay("alpha").connections, 1, "calls share the one ssh connection");
        assert.equal(hosts.link("local"), LOCAL);
        assert.deepEqual(hosts.names(), ["local", ...LAB_HOSTS]);
      });

      await t.step("runShell runs on the host and returns stdout and status through the link", async () => {
        const alpha = hosts.link("alpha");
        const before = lab.relay("alpha").connections;
        const result = await alpha.runShell('echo "$TMUX"; printf "two\\nlines #{not_a_format} ##"; exit 3');
        assert.equal(result.status, 3);
        const [tmuxVar, ...rest] = result.stdout.split("\n");
        assert.ok(tmuxVar.startsWith(lab.tmuxTmpdir("alpha")), tmuxVar);
        assert.deepEqual(rest, ["two", "lines #{not_a_format} ##"]);
        assert.deepEqual(await alpha.runShell("true"), { stdout: "", status: 0 });
        assert.deepEqual(await alpha.runShell("printf 'a\\n\\n'"), { stdout: "a\n\n", status: 0 });
        // No buffer is left behind, and no second ssh was started.
        assert.deepEqual(await alpha.run("list-buffers", "-F", "#{buffer_name}"), []);
        assert.equal(lab.relay("alpha").connections, before);
        // One-shot commands (argv with ";" between commands) also run on the link.
        const out = await alpha.oneShot("display-message", "-p", "one", ";", "display-message", "-p", "two");
        assert.equal(out, "one\ntwo\n");
        await assert.rejects(alpha.runShell("date +%s"), RangeError);
      });

      await t.step("a remote pane's process facts are read through the link, not from local files", async () => {
        const alpha = hosts.link("alpha");
        await alpha.run("new-window", "-d", "-n", "proc", "exec sleep 600");
        const [pid] = await alpha.run("display-message", "-p", "-t", ":proc", "#{pane_pid}");
        // The window's shell execs sleep: wait until it has.
        for (let i = 0; i < 100; i++) {
          const [command] = await alpha.run("display-message", "-p", "-t", ":proc", "#{pane_current_command}");
          if (command === "sleep") break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const stateDir = await Deno.makeTempDir({ prefix: "tw-hosts-proc-" });
        const before = lab.relay("alpha").connections;
        try {
          // Both backends, whichever the test run forces: the look runs on the host.
          for (const backend of ["proc", "ps"] as const) {
            const look = await new ProcessFacts(alpha, stateDir, backend).look(Number(pid), { terminal: true });
            assert.equal(look.ran, true, backend);
            const fact = look.facts.get(Number(pid));
            assert.deepEqual([fact?.comm, fact?.state], ["sleep", "S"], `${backend}: ${JSON.stringify(fact)}`);
            assert.match(look.terminalModes ?? "", /icanon/, backend);
          }
          assert.equal(lab.relay("alpha").connections, before);
          // Nothing was written locally: the looks came back as the script's output.
          assert.deepEqual([...Deno.readDirSync(stateDir)], []);
        } finally {
          await Deno.remove(stateDir, { recursive: true });
          await alpha.guarded([["kill-window", "-t", ":proc"]]);
        }
      });

      await t.step("runShell on the local server gives the same result", async () => {
        await LOCAL.oneShot("new-session", "-d", "-s", "rs-local");
        const result = await LOCAL.runShell('printf "x #{y}"; exit 4');
        assert.deepEqual(result, { stdout: "x #{y}", status: 4 });
      });

      await t.step("a name that is not configured never reaches ssh, whatever it holds", async () => {
        const marker = `${lab.dir}/proxy-ran`;
        const hostile = [
          "root@10.0.0.1",
          `-oProxyCommand=touch ${marker}`,
          "a; id",
          "$(id)",
          "alpha ",
          "Alpha",
          "",
          "LOCAL",
          "x".repeat(500),
          "alpha\n",
        ];
        for (const name of hostile) {
          const { error } = await failure(Promise.resolve().then(() => hosts.link(name).run("list-sessions")));
          assert.equal(error.code, "HOST_NOT_CONFIGURED", JSON.stringify(name));
          assert.match(error.message, /this server can reach: local, alpha, beta/);
          assert.ok(error.message.length < 300);
        }
        await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
      });

      await t.step("an unknown or changed host key fails within seconds, naming the host and the fix", async () => {
        const unknown = await failure(hosts.link("stranger").run("list-sessions"));
        assert.equal(unknown.error.code, "HOST_KEY_UNKNOWN");
        assert.match(unknown.error.message, /Host "stranger" \(stranger\) has a host key ssh does not know/);
        assert.ok(unknown.error.hint?.includes(`ssh -F ${lab.configFile} stranger`), unknown.error.hint);
        assert.ok(unknown.ms < 5000, `${unknown.ms} ms`);
        // Retried at once: the same error (no new ssh), saying when the next attempt will be made.
        const again = await failure(hosts.link("stranger").run("list-sessions"));
        assert.equal(again.error.code, "HOST_KEY_UNKNOWN");
        assert.match(again.error.message, /; next attempt in \d+ ms$/);
        const changed = await failure(hosts.link("changed").run("list-sessions"));
        assert.equal(changed.error.code, "HOST_KEY_CHANGED");
        assert.match(changed.error.message, /Host "changed" .* different from the one in known_hosts/);
        assert.match(changed.error.hint ?? "", /ssh-keygen -f .*known_hosts.* -R .*tw-changed/);
        assert.ok(changed.ms < 5000, `${changed.ms} ms`);
      });

      await t.step("tmux missing or older than 3.2 on the host is a clear error naming it", async () => {
        const missing = await failure(hosts.link("notmux").run("list-sessions"));
        assert.equal(missing.error.code, "TMUX_UNAVAILABLE");
        assert.match(missing.error.message, /tmux is not installed .* on host "notmux"/);
        const old = await failure(hosts.link("oldtmux").run("list-sessions"));
        assert.equal(old.error.code, "TMUX_UNAVAILABLE");
        assert.match(old.error.message, /tmux 3\.0a on host "oldtmux" .* too old: tmuxwright needs tmux 3\.2/);
      });

      await t.step("a refused connection is HOST_UNREACHABLE; retries back off", async () => {
        const first = await failure(hosts.link("nowhere").run("list-sessions"));
        assert.equal(first.error.code, "HOST_UNREACHABLE");
        assert.match(first.error.message, /Host "nowhere" \(nowhere\) is unreachable: .*refused/i);
        const second = await failure(hosts.link("nowhere").run("list-sessions"));
        assert.equal(second.error.code, "HOST_UNREACHABLE");
        assert.match(second.error.message, /^Host "nowhere" \(nowhere\) is unreachable: .*; next attempt in \d+ ms$/);
        assert.equal(second.error.message.match(/is unreachable/g)?.length, 1);
        assert.ok(second.ms < 250, `backoff answers at once (${second.ms} ms)`);
      });

      await t.step("a cut link fails calls in flight, the next call reconnects; remote state survives", async () => {
        const alpha = hosts.link("alpha");
        await alpha.run("new-window", "-d", "-n", "survivor", "sleep 600");
        const inFlight = failure(alpha.runShell("sleep 20"));
        await new Promise((r) => setTimeout(r, 300)); // the script is running remotely
        lab.relay("alpha").cut();
        const { error, ms } = await inFlight;
        assert.equal(error.code, "HOST_UNREACHABLE");
        assert.match(error.message, /Host "alpha"/);
        assert.ok(ms < 5000, `${ms} ms`);
        const windows = await alpha.run("list-windows", "-F", "#{window_name}");
        assert.ok(windows.includes("survivor"), windows.join(","));
        // beta was never touched
        assert.equal((await hosts.link("beta").run("display-message", "-p", "ok"))[0], "ok");
      });

      await t.step("close removes each hub session and ends ssh", async () => {
        const hub = (await hosts.link("beta").run("display-message", "-p", "#{session_name}"))[0];
        await hosts.close();
        assert.equal(lab.relay("beta").connections, 0);
        assert.equal((await lab.remoteTmux("beta", "has-session", "-t", `=${hub}`)).code, 1);
        const { error } = await failure(Promise.resolve().then(() => hosts.link("beta").run("list-sessions")));
        assert.equal(error.code, "HOST_UNREACHABLE");
      });
    } finally {
      await hosts.close();
      await LOCAL.oneShot("kill-server").catch(() => {});
      await LOCAL.close();
      await Deno.remove(LOCAL_SOCKET).catch(() => {});
      await lab.close();
    }
  },
});

Deno.test({
  name: "a black-holed link is noticed by keep-alives: calls in flight fail, then it heals",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const lab = await SshLab.start();
    try {
      await t.step("default timing: noticed within 15 s", async () => {
        const hosts = registry(lab, LOCAL);
        try {
          const alpha = hosts.link("alpha");
          await alpha.run("display-message", "-p", "up");
          lab.relay("alpha").blackhole();
          const { error, ms } = await failure(alpha.run("display-message", "-p", "lost"));
          assert.equal(error.code, "HOST_UNREACHABLE");
          assert.match(error.message, /Host "alpha"/);
          assert.ok(ms < 15_000, `noticed after ${Math.round(ms)} ms`);
          lab.relay("alpha").heal();
          const healed = performance.now();
          let answer: string[] | null = null;
          while (answer === null && performance.now() - healed < 20_000) {
            answer = await alpha.run("display-message", "-p", "back").catch(async () => {
              await new Promise((r) => setTimeout(r, 100));
              return null;
            });
          }
          assert.deepEqual(answer, ["back"]);
        } finally {
          lab.relay("alpha").heal();
          await hosts.close();
        }
      });
    } finally {
      await lab.close();
    }
  },
});
