import assert from "node:assert/strict";
import { ControlClient } from "../src/tmux/control.ts";
import { TmuxServer } from "../src/tmux/server.ts";
import { SessionTaps } from "../src/engine/output/session_taps.ts";
import { linkScript, LOCK_FUNCTIONS } from "../src/tmux/host_session_lock.ts";
import { SWEEP_FUNCTIONS } from "../src/tmux/sweep.ts";
import { removeEventually, tmuxAt, until } from "./helpers/harness.ts";

/**
 * tmux 3.3a crashes when a session is created or removed while a control client attaches. Guarded
 * steps and control clients behind the link script take the tmux server's session lock (as two
 * server processes do); without it this loop takes the tmux server down within a few dozen
 * attaches on this machine.
 */
Deno.test("guarded session changes never overlap control clients attaching", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  const creator = new TmuxServer(socket, () => Promise.resolve("keep"), `${dir}/state/links`);
  try {
    assert.equal((await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "keep")).code, 0);
    const pid = (await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim();
    const churn = async () => {
      for (let i = 0; i < 120; i++) {
        await creator.guarded([["new-session", "-d", "-s", `n${i}`, "sleep 60"]]);
        await creator.guarded([["kill-session", "-t", `=n${i}`]]);
      }
    };
    const attach = async () => {
      for (let i = 0; i < 40; i++) {
        const client = await ControlClient.connect(socket, "keep", {}, `${dir}/state/links`);
        await client.close();
      }
    };
    await Promise.all([churn(), attach()]);
    assert.equal((await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim(), pid);
  } finally {
    await creator.close();
    await tmuxAt(`${dir}/s`, "kill-server");
    await removeEventually(dir);
  }
});

/**
 * A control client ending sends `%client-detached` to every other control client, which crashes
 * tmux 3.3a as surely as a new session when one of them is still attaching. Two servers' output
 * taps opening and closing on one session at once, each behind its link script.
 */
Deno.test("output taps of two servers opening and closing at once never take tmux down", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  const taps = [new SessionTaps(socket, `${dir}/a/links`), new SessionTaps(socket, `${dir}/b/links`)];
  try {
    assert.equal((await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "keep")).code, 0);
    const pid = (await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim();
    const paneId = (await tmuxAt(`${dir}/s`, "display-message", "-p", "-t", "keep", "#{pane_id}")).stdout.trim();
    const churn = async (tapsOfServer: SessionTaps) => {
      for (let i = 0; i < 150; i++) {
        const tap = await tapsOfServer.subscribe("keep", paneId, () => {});
        tap.close();
        await until(() => tapsOfServer.openClients, (open) => open === 0);
      }
    };
    await Promise.all(taps.map(churn));
    assert.equal((await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim(), pid);
  } finally {
    for (const t of taps) t.close();
    await tmuxAt(`${dir}/s`, "kill-server");
    await removeEventually(dir);
  }
});

/**
 * A server that dies (SIGKILL) cannot end its control clients under the lock itself: behind the
 * link script, the client's input ends when the process's end of its fifo does, and the script
 * ends the client under the lock. Here clients are dropped (their streams closed at once, as a
 * death closes them) while others attach in a loop.
 */
Deno.test("control clients dropped by a dying server end under the lock while others attach", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  try {
    assert.equal((await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "keep")).code, 0);
    const pid = (await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim();
    const loop = async (who: string, drop: boolean) => {
      for (let i = 0; i < 30; i++) {
        const client = await ControlClient.connect(socket, "keep", {}, `${dir}/${who}/links`);
        if (drop) client.kill();
        else await client.close();
      }
    };
    await Promise.all([loop("a", true), loop("b", false), loop("c", true)]);
    assert.equal((await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim(), pid);
    await until(() => tmuxAt(`${dir}/s`, "list-clients"), (clients) => clients.stdout.trim() === "");
  } finally {
    await tmuxAt(`${dir}/s`, "kill-server");
    await removeEventually(dir);
  }
});

/**
 * The link script goes to the user's login shell inside `sh -c '…'` over ssh: none of sh, bash,
 * zsh, fish, csh or tcsh may meet a `'`, a `\`, a newline or a `%` there, nor a `!` that an
 * interactive csh would expand (`$!` is safe: `-c` shells expand no history).
 */
Deno.test("the link script and the lock functions are one line that every login shell passes through unchanged", async () => {
  const hub = linkScript({ session: "tmuxwright-link-x", client: "tmux -u -C attach", makeHub: true, orphans: "hub" });
  const local = linkScript({
    session: "tmuxwright-1",
    client: "tmux -u -C attach",
    makeHub: false,
    orphans: { ownerPid: 1 },
  });
  for (const text of [LOCK_FUNCTIONS, SWEEP_FUNCTIONS, hub, local]) assert.doesNotMatch(text, /['\\%\n]|[^$]!/);
  for (const script of [hub, local]) {
    for (const shell of ["/bin/sh", "/usr/bin/bash", "/usr/bin/zsh", "/usr/bin/fish", "/usr/bin/tcsh"]) {
      const passed = await new Deno.Command(shell, { args: ["-c", `printf '%s' '${script}'`] }).output();
      assert.equal(new TextDecoder().decode(passed.stdout), script, shell);
      const parsed = await new Deno.Command("sh", { args: ["-n", "-c", script] }).output();
      assert.equal(parsed.code, 0, new TextDecoder().decode(parsed.stderr));
    }
  }
});

/**
 * The lock goes with its holder: one left by a process that is gone is taken away by the next
 * step (its holder is looked at every half second of waiting), and one held by a live process
 * is waited for, never taken.
 */
Deno.test("a lock whose holder is gone is taken away; one whose holder lives is waited for", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  const tmux = new TmuxServer(socket, () => Promise.resolve("keep"), `${dir}/state/links`);
  const lock = `${dir}/tmuxwright-lock`;
  try {
    assert.equal((await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "keep", "cat")).code, 0);
    const gone = new Deno.Command("true").spawn();
    await gone.status;
    await Deno.symlink(`pid:${gone.pid}`, lock);
    await tmux.guarded([["new-session", "-d", "-s", "after-gone", "cat"]]);
    assert.equal((await tmuxAt(`${dir}/s`, "has-session", "-t", "=after-gone")).code, 0);
    await assert.rejects(Deno.lstat(lock), Deno.errors.NotFound);

    const holder = new Deno.Command("sleep", { args: ["1.5"] }).spawn();
    await Deno.symlink(`pid:${holder.pid}`, lock);
    const started = performance.now();
    const step = tmux.guarded([["new-session", "-d", "-s", "after-live", "cat"]]);
    await holder.status;
    await Deno.remove(lock); // the holder lets go
    await step;
    assert.ok(performance.now() - started >= 1_400, "the step did not wait for the live holder");
  } finally {
    await tmuxAt(`${dir}/s`, "kill-server");
    await removeEventually(dir);
  }
});
