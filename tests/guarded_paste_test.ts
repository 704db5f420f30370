import assert from "node:assert/strict";
import { TmuxServer } from "../src/tmux/server.ts";
import { pasteBufferIfAlive } from "../src/tmux/guarded_paste.ts";
import { TestServer, tmuxAt, until } from "./helpers/harness.ts";

// tmux 3.3a dies on paste-buffer into a dead pane, taking every session with it.
Deno.test("pasteBufferIfAlive never pastes into a dead pane, and the tmux server survives", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twp" });
  const socket = `${dir}/s`;
  await tmuxAt(
    socket,
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "hub",
    "cat",
    ";",
    "set",
    "-g",
    "remain-on-exit",
    "on",
  );
  const dead = (await tmuxAt(socket, "new-window", "-d", "-P", "-F", "#{pane_id}", "true")).stdout.trim();
  const live = (await tmuxAt(socket, "new-window", "-d", "-P", "-F", "#{pane_id}", "cat")).stdout.trim();
  await until(
    () => tmuxAt(socket, "display-message", "-p", "-t", dead, "#{pane_dead}"),
    (r) => r.stdout.trim() === "1",
  );
  const tmux = new TmuxServer(["-S", socket], () => Promise.resolve("hub"));
  try {
    await tmux.run("set-buffer", "-b", "b1", "hello");
    assert.equal(await pasteBufferIfAlive(tmux, "b1", dead, true), false);
    assert.equal((await tmuxAt(socket, "has-session", "-t", "=hub")).code, 0, "tmux server still running");
    assert.equal(await pasteBufferIfAlive(tmux, "b1", live, false), true);
    await until(() => tmuxAt(socket, "capture-pane", "-p", "-t", live), (r) => r.stdout.includes("hello"));
  } finally {
    await tmux.close();
    await tmuxAt(socket, "kill-server");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("paste_text into an exited pane is an error, and tmux keeps running", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<{ pane_id: string }>("create_pane", { command: "exit 0" });
  await until(
    () => s.call<{ status: string }>("capture_pane", { pane_id: pane.pane_id }),
    (c) => c.status === "exited",
  );
  assert.match(await s.callError("paste_text", { pane_id: pane.pane_id, text: "x" }), /^PANE_DEAD: /);
  assert.equal((await s.tmux("list-sessions")).code, 0);
});

// A host link runs if-shell on its control connection: its branch gets a reply block of its own.
Deno.test("if-shell on a control connection: one answer from both of its blocks, later replies stay in step", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twp" });
  const socket = `${dir}/s`;
  await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "hub", "cat");
  const live = (await tmuxAt(socket, "display-message", "-p", "-t", "hub", "#{pane_id}")).stdout.trim();
  const tmux = new TmuxServer(["-S", socket], () => Promise.resolve("hub"));
  try {
    const branch = (
      cond: string,
    ) => ["if-shell", "-F", "-t", live, cond, "display-message -p yes", "display-message -p no"];
    const replies = await tmux.batch([branch("1"), ["display-message", "-p", "next"], branch("0"), [
      "display-message",
      "-p",
      "last",
    ]]);
    assert.deepEqual(replies, [["yes"], ["next"], ["no"], ["last"]]);
    // With one branch, whether a second block comes depends on the condition: refused, nothing queued.
    const oneBranch = ["if-shell", "-F", "-t", live, "0", "display-message -p yes"];
    await assert.rejects(tmux.pipeline([oneBranch]), RangeError);
    assert.deepEqual(await tmux.run("display-message", "-p", "after"), ["after"]);
  } finally {
    await tmux.close();
    await tmuxAt(socket, "kill-server");
    await Deno.remove(dir, { recursive: true });
  }
});
