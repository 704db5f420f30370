import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";

/**
 * send_keys / paste_text with `wait` wait in the same call for what the input causes, listening
 * from before the keys were sent; every send returns a cursor that wait_for_text and
 * capture_since start from, so a separate wait never misses a reply that came first.
 */
type Sent = {
  cursor: string;
  trigger?: string;
  line?: string;
  exit_code?: number | null;
  elapsed_ms?: number;
  output?: string;
};
type Wait = { matched: boolean; line?: string };

const ASK = `python3 -c "n=input('name? '); print('hello', n)"`;

Deno.test("send_keys with wait: the reply to a question, in one call; its echo is not output", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const asked = await server.call<{ pane_id: string; outcome: string }>("start_process", {
    command: ASK,
    ready: "^name\\? $",
  });
  assert.equal(asked.outcome, "ready");
  const sent = await server.call<Sent>("send_keys", {
    pane_id: asked.pane_id,
    text: "tmux",
    wait: ["pattern:^hello tmux$"],
    timeout_ms: 10_000,
  });
  assert.deepEqual([sent.trigger, sent.line], ["pattern:^hello tmux$", "hello tmux"], JSON.stringify(sent));
  assert.ok(!sent.output!.includes("name? tmux"), sent.output);
  assert.ok(sent.elapsed_ms! < 5_000);
});

Deno.test("a reply that came before the wait began: wait_for_text from the send_keys cursor matches it", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  for (const user of [false, true]) {
    let pane_id: string;
    if (user) {
      const made = await server.tmux("new-session", "-d", "-s", "users", "-P", "-F", "#{pane_id}", PLAIN_BASH);
      pane_id = made.stdout.trim();
      await server.call("send_keys", { pane_id, text: ASK });
      const asking = (c: { text: string }) => c.text.split("\n").includes("name?"); // the question, not the command line
      await until(() => server.call<{ text: string }>("capture_pane", { pane_id }), asking);
    } else {
      pane_id =
        (await server.call<{ pane_id: string }>("start_process", { command: ASK, ready: "^name\\? $" })).pane_id;
    }
    const sent = await server.call<Sent>("send_keys", { pane_id, text: "tmux" });
    assert.ok(sent.cursor.startsWith("tw1."));
    await until(() => server.call<{ text: string }>("capture_pane", { pane_id }), (c) => c.text.includes("hello tmux"));
    // The reply is already on screen: a wait from the cursor still sees it, the echo does not match.
    const waited = await server.call<Wait>("wait_for_text", {
      pane_id,
      pattern: "tmux",
      cursor: sent.cursor,
      timeout_ms: 5_000,
    });
    assert.deepEqual([waited.matched, waited.line], [true, "hello tmux"], `user pane: ${user}`);
    const since = await server.call<{ text: string }>("capture_since", { cursor: sent.cursor });
    assert.ok(since.text.includes("hello tmux"), since.text);
  }
});

Deno.test("send_keys wait shell: an integrated shell's prompt mark ends the wait at once, with the status", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  await server.call("execute_command", { command: "true" });
  const sent = await server.call<Sent>("send_keys", {
    pane_id: "default",
    text: "sleep 0.3; echo done; false",
    wait: ["shell"],
    timeout_ms: 10_000,
  });
  assert.deepEqual([sent.trigger, sent.output, sent.exit_code], ["shell", "done", 1], JSON.stringify(sent));
  assert.ok(sent.elapsed_ms! >= 250 && sent.elapsed_ms! < 2_000, `elapsed ${sent.elapsed_ms}`);

  // A shell without integration: the OS says when it is back at its prompt.
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: PLAIN_BASH });
  await until(() => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id }), (s) => s.at_shell_prompt);
  const plain = await server.call<Sent>("send_keys", { pane_id, text: "sleep 0.3; echo plain", wait: ["shell"] });
  assert.deepEqual([plain.trigger, plain.output], ["shell", "plain"], JSON.stringify(plain));
});

Deno.test("send_keys wait input: the program reads the terminal again; paste_text waits the same way", async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/bash" } });
  await server.call("execute_command", { command: "true" });
  const asked = await server.call<Sent>("send_keys", {
    pane_id: "default",
    text: `python3 -c "print('step 1'); input('Password: ')"`,
    wait: ["input"],
    timeout_ms: 10_000,
  });
  assert.equal(asked.trigger, "input", JSON.stringify(asked));
  assert.ok(asked.output!.endsWith("step 1\nPassword:"), asked.output);
  await server.call("send_keys", { pane_id: "default", text: "secret", wait: ["shell"] });

  const pasted = await server.call<Sent>("paste_text", {
    pane_id: "default",
    text: "for i in 1 2 3; do\n  echo item $i\ndone",
    enter: true,
    wait: ["shell"],
    timeout_ms: 10_000,
  });
  assert.deepEqual([pasted.trigger, pasted.output], ["shell", "item 1\nitem 2\nitem 3"], JSON.stringify(pasted));
});
