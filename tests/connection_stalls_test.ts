import assert from "node:assert/strict";
import { modeExitBefore } from "../src/tmux/key_guard.ts";
import { TestServer, until } from "./helpers/harness.ts";

/**
 * Keys typed into a pane in copy mode run copy mode's bindings as the sending client; on the
 * control connection a binding that opens a prompt (`t`, `f`, `g` in emacs keys; `/`, `:` in vi)
 * would wait for an answer forever and stall every later call of every agent. Keys go to the
 * program instead: the pane leaves its mode first.
 */
const PROMPTING_KEYS = "tfg/:?Tqx";

/** A call that must answer promptly: a stalled connection fails here, not at the 120 s call timeout. */
async function quick<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within 10 s: the connection stalled`)), 10_000);
  });
  try {
    return await Promise.race([promise, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

for (const modeKeys of ["emacs", "vi"]) {
  Deno.test(`keys into a pane in copy mode (${modeKeys} keys) reach its program and stall nothing`, async () => {
    await using server = await TestServer.start({ args: ["--tools", "all"] });
    await server.tmux("set-option", "-g", "mode-keys", modeKeys);
    const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "cat" });
    await until(
      () => server.tmux("display-message", "-p", "-t", pane_id, "#{pane_current_command}"),
      (r) => r.stdout.trim() === "cat",
    );

    await server.call("enter_copy_mode", { pane_id });
    await quick(server.call("send_keys", { pane_id, text: PROMPTING_KEYS }), "send_keys");
    await quick(server.call("list_panes"), "list_panes after send_keys");
    const screen = await quick(server.call<{ text: string }>("capture_pane", { pane_id }), "capture_pane");
    assert.match(screen.text, new RegExp(PROMPTING_KEYS.replace(/[?/]/g, "\\$&")), "cat echoed the keys");
    assert.equal((await server.tmux("display-message", "-p", "-t", pane_id, "#{pane_in_mode}")).stdout.trim(), "0");

    // Named keys too (C-r and C-s open copy mode's search prompt).
    await server.call("enter_copy_mode", { pane_id });
    await quick(server.call("send_keys", { pane_id, keys: ["C-r", "C-s", "g"] }), "send_keys keys");
    await quick(server.call("list_panes"), "list_panes after named keys");

    // Notes for the person watching, whose pane they scrolled back in.
    const display = await server.call<{ pane_id: string }>("write_to_display", { text: "first note" });
    await server.call("enter_copy_mode", { pane_id: display.pane_id });
    await quick(server.call("write_to_display", { text: "the next note" }), "write_to_display");
    await until(
      () => server.call<{ text: string }>("capture_pane", { pane_id: display.pane_id }),
      (r) => r.text.includes("the next note"),
    );

    // A command in a shell pane someone scrolled back in.
    const shell = await server.call<{ pane_id: string }>("create_pane", {});
    await server.call("execute_command", { pane_id: shell.pane_id, command: "seq 1 100" });
    await server.call("enter_copy_mode", { pane_id: shell.pane_id, scroll_up: 20 });
    const ran = await quick(
      server.call<{ output: string; exit_code: number }>("execute_command", {
        pane_id: shell.pane_id,
        command: "echo tfg",
      }),
      "execute_command",
    );
    assert.deepEqual([ran.output, ran.exit_code], ["tfg", 0]);
  });
}

Deno.test("the key guard: keys are preceded by leaving the pane's mode; copy-mode commands are not", () => {
  assert.deepEqual(modeExitBefore(["send-keys", "-t", "%3", "-l", "--", "text"]), ["copy-mode", "-q", "-t", "%3"]);
  assert.deepEqual(modeExitBefore(["send-keys", "-t", "%3", "Enter"]), ["copy-mode", "-q", "-t", "%3"]);
  assert.deepEqual(modeExitBefore(["send-keys", "-N", "3", "-t%9", "Up"]), ["copy-mode", "-q", "-t", "%9"]);
  assert.deepEqual(modeExitBefore(["send-keys", "-t", "%3", "--", "-"]), ["copy-mode", "-q", "-t", "%3"]);
  assert.equal(modeExitBefore(["send-keys", "-X", "-t", "%3", "cancel"]), null);
  assert.equal(modeExitBefore(["send-keys", "-X", "-N", "5", "-t", "%3", "scroll-up"]), null);
  assert.equal(modeExitBefore(["send-keys", "-R", "-t", "%3"]), null, "no keys: nothing is dispatched");
  assert.equal(modeExitBefore(["list-panes", "-t", "%3"]), null);
});

Deno.test("a connection stuck on a prompt (a user's hook) fails the waiting call after 15 s and is replaced", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
  // The hook opens a prompt on the client that listed sessions: ours, which can never answer it.
  await server.tmux("set-hook", "-g", "after-list-sessions", "command-prompt -p stuck 'display-message %%'");
  const started = performance.now();
  const stuck = await server.callError("list_sessions"); // its next command waits behind the prompt
  const waited = performance.now() - started;
  assert.match(stuck, /^TMUX_UNAVAILABLE: .*did not answer [a-z-]+ within 15 s .*Retry the call/);
  assert.ok(waited < 25_000, `failed after ${Math.round(waited)} ms`);
  await server.tmux("set-hook", "-gu", "after-list-sessions");
  const { panes } = await quick(server.call<{ panes: { pane_id: string }[] }>("list_panes"), "list_panes after");
  assert.deepEqual(panes.map((p) => p.pane_id), [pane_id], "the panes outlived the connection");
  const ran = await server.call<{ output: string }>("execute_command", { pane_id, command: "echo still here" });
  assert.equal(ran.output, "still here");
});
