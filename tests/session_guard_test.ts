import assert from "node:assert/strict";
import { ControlClient } from "../src/tmux/control.ts";
import { tmuxOneShot } from "../src/tmux/oneshot.ts";
import { SessionGuard } from "../src/tmux/session_guard.ts";
import { SessionTaps } from "../src/engine/output/session_taps.ts";
import { tmuxAt, until } from "./helpers/harness.ts";

/**
 * tmux 3.3a crashes when a session is created or removed while a control client attaches. Two
 * guards on one lock file (as two server processes have) keep the two apart; without the guard
 * this loop takes the tmux server down within a few dozen attaches on this machine.
 */
Deno.test("the session guard keeps session changes apart from control clients attaching", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  const lock = `${dir}/state/sessions.lock`;
  const creator = new SessionGuard(lock);
  const attacher = new SessionGuard(lock);
  try {
    assert.equal((await tmuxAt(`${dir}/s`, "-f", "/dev/null", "new-session", "-d", "-s", "keep")).code, 0);
    const pid = (await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim();
    const churn = async () => {
      for (let i = 0; i < 120; i++) {
        await creator.run(() => tmuxOneShot([...socket, "new-session", "-d", "-s", `n${i}`, "sleep 60"]));
        await creator.run(() => tmuxOneShot([...socket, "kill-session", "-t", `=n${i}`]));
      }
    };
    const attach = async () => {
      for (let i = 0; i < 40; i++) {
        const client = await attacher.run(() => ControlClient.connect(socket, "keep"));
        await client.close();
      }
    };
    await Promise.all([churn(), attach()]);
    assert.equal((await tmuxAt(`${dir}/s`, "display-message", "-p", "#{pid}")).stdout.trim(), pid);
  } finally {
    await tmuxAt(`${dir}/s`, "kill-server");
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A control client ending sends `%client-detached` to every other control client, which crashes
 * tmux 3.3a as surely as a new session when one of them is still attaching. Two servers' output
 * taps (one guard each, on one lock file) opening and closing on one session at once.
 */
Deno.test("output taps of two servers opening and closing at once never take tmux down", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twg" });
  const socket = ["-S", `${dir}/s`];
  const lock = `${dir}/state/sessions.lock`;
  const taps = [new SessionTaps(socket, new SessionGuard(lock)), new SessionTaps(socket, new SessionGuard(lock))];
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
    await Deno.remove(dir, { recursive: true });
  }
});
