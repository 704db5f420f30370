import assert from "node:assert/strict";
import { TestServer, tmuxAt } from "./helpers/harness.ts";
import { TmuxServer } from "../src/tmux/server.ts";
import { assertNotSelf, callerScope, selfProtectionReason } from "../src/safety/self_protection.ts";
import { parseCaller } from "../src/config.ts";

/** A plain tmux server on `socket` with one session; returns what TMUX/TMUX_PANE would say inside its pane. */
async function plainServer(socket: string) {
  const made = await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}");
  assert.equal(made.code, 0, made.stderr);
  const pane = made.stdout.trim();
  const info = await tmuxAt(socket, "display-message", "-p", "-t", pane, "#{pid} #{session_id} #{window_id}");
  const [pid, sessionId, windowId] = info.stdout.trim().split(" ");
  return { pane, windowId, sessionId, env: { TMUX: `${socket},${pid},${sessionId.slice(1)}`, TMUX_PANE: pane } };
}

Deno.test("running inside a tmux pane, the server refuses to kill that pane even at destructive", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const caller = await plainServer(`${dir}/s`);
  const sibling = await tmuxAt(`${dir}/s`, "split-window", "-d", "-t", caller.pane, "-P", "-F", "#{pane_id}");
  await using server = await TestServer.start({ dir, env: caller.env, args: ["--safety", "destructive"] });

  const { panes } = await server.call<{ panes: { pane_id: string; is_caller?: boolean }[] }>("list_panes");
  assert.equal(panes.find((p) => p.pane_id === caller.pane)?.is_caller, true, JSON.stringify(panes));
  assert.equal(panes.filter((p) => p.is_caller).length, 1);

  const text = await server.callError("kill_pane", { pane_id: caller.pane });
  assert.match(
    text,
    new RegExp(
      `^PROTECTED_TARGET: Cannot kill pane ${caller.pane}: tmuxwright itself runs in it|` +
        `^PROTECTED_TARGET: Cannot kill pane ${caller.pane}: tmuxwright itself runs in pane`,
    ),
  );
  assert.equal((await server.tmux("display-message", "-p", "-t", caller.pane, "#{pane_id}")).code, 0);

  // Another user pane on the same server is only a matter of tier.
  await server.call("kill_pane", { pane_id: sibling.stdout.trim() });
});

Deno.test("a pane with the caller's id on another tmux server can be killed", async () => {
  const callerDir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const caller = await plainServer(`${callerDir}/s`);
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const other = await plainServer(`${dir}/s`);
  await tmuxAt(`${dir}/s`, "new-window", "-d", "-t", "user:"); // keeps the session after the kill
  assert.equal(other.pane, caller.pane, "both servers number their first pane alike");
  try {
    await using server = await TestServer.start({ dir, env: caller.env, args: ["--safety", "destructive"] });
    const { panes } = await server.call<{ panes: { pane_id: string; is_caller?: boolean }[] }>("list_panes");
    assert.ok(!panes.some((p) => p.is_caller), JSON.stringify(panes));
    const killed = await server.call<{ killed: boolean }>("kill_pane", { pane_id: other.pane });
    assert.equal(killed.killed, true);
    assert.equal((await tmuxAt(`${callerDir}/s`, "display-message", "-p", "-t", caller.pane, "ok")).code, 0);
  } finally {
    await tmuxAt(`${callerDir}/s`, "kill-server");
    await Deno.remove(callerDir, { recursive: true });
  }
});

Deno.test("self-protection covers the caller's window, session and server, and nothing on another server", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const otherDir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const socket = `${dir}/s`;
  const caller = await plainServer(socket);
  const other = await plainServer(`${otherDir}/s`);
  const spare = (await tmuxAt(socket, "new-session", "-d", "-s", "spare", "-P", "-F", "#{window_id} #{session_id}"))
    .stdout.trim().split(" ");
  // Attached to "spare": moving the caller pane away below ends the session "user".
  const tmux = new TmuxServer(["-S", socket], () => Promise.resolve("spare"));
  const otherTmux = new TmuxServer(["-S", `${otherDir}/s`], () => Promise.resolve("user"));
  try {
    const parsed = parseCaller(caller.env.TMUX, caller.env.TMUX_PANE);
    const scope = await callerScope(tmux, parsed);
    assert.deepEqual(scope && { pane: scope.paneId, window: scope.windowId }, {
      pane: caller.pane,
      window: caller.windowId,
    });
    assert.ok(selfProtectionReason(scope, { kind: "pane", paneId: caller.pane }));
    assert.match(selfProtectionReason(scope, { kind: "window", windowId: caller.windowId })!, /runs in window/);
    assert.match(selfProtectionReason(scope, { kind: "session", sessionId: caller.sessionId })!, /runs in session/);
    assert.match(selfProtectionReason(scope, { kind: "server" })!, /this tmux server/);
    assert.equal(selfProtectionReason(scope, { kind: "window", windowId: spare[0] }), null);
    assert.equal(selfProtectionReason(scope, { kind: "session", sessionId: spare[1] }), null);
    await assert.rejects(
      assertNotSelf(tmux, parsed, { kind: "session", sessionId: caller.sessionId }, "kill"),
      /PROTECTED|Cannot kill session \$\d+: tmuxwright itself runs in session/,
    );
    // The pane moved to another session: its new session and window are protected too.
    await tmuxAt(socket, "move-pane", "-d", "-s", caller.pane, "-t", "spare:");
    const moved = await callerScope(tmux, parsed);
    assert.ok(moved?.sessionIds.has(spare[1]) && moved.sessionIds.has(caller.sessionId));
    assert.equal(moved?.windowId, spare[0]);

    // Same ids, another server: nothing is protected there.
    assert.equal(await callerScope(otherTmux, parsed), null);
    await assertNotSelf(otherTmux, parsed, { kind: "server" }, "kill");
    await assertNotSelf(otherTmux, parsed, { kind: "pane", paneId: other.pane }, "kill");
  } finally {
    await tmux.close();
    await otherTmux.close();
    await tmuxAt(socket, "kill-server");
    await tmuxAt(`${otherDir}/s`, "kill-server");
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(otherDir, { recursive: true });
  }
});
