import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH, shellPane } from "./helpers/shell_pane.ts";

async function tmuxBuffers(server: TestServer): Promise<Map<string, string>> {
  const names = (await server.tmux("list-buffers", "-F", "#{buffer_name}")).stdout.split("\n").filter(Boolean);
  const buffers = new Map<string, string>();
  for (const name of names) buffers.set(name, (await server.tmux("show-buffer", "-b", name)).stdout);
  return buffers;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

Deno.test("buffers: load, show, paste and delete only this server's buffers; a person's are never touched", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const pane = (await server.call<{ pane_id: string }>("create_pane", { command: "cat" })).pane_id;
  // A person's buffers, one of them shaped like a tmuxwright name.
  const lookalike = `tmuxwright-${server.pid}-0123456789ab`;
  await server.tmux("set-buffer", "-b", "userbuf", "secret clipboard");
  await server.tmux("set-buffer", "-b", lookalike, "also theirs");
  const before = await tmuxBuffers(server);

  for (const buffer of ["userbuf", lookalike]) {
    for (
      const [tool, extra] of [["show_buffer", {}], ["paste_buffer", { pane_id: pane }], ["delete_buffer", {}]] as const
    ) {
      const text = await server.callError(tool, { buffer, ...extra });
      assert.match(text, new RegExp(`^NOT_FOUND: Buffer "${buffer}" was not created by this server.*load_buffer`));
    }
  }
  assert.deepEqual(await tmuxBuffers(server), before);

  const text = "line one\nline two with $HOME and #{pane_id}";
  const loaded = await server.call<{ buffer: string; bytes: number }>("load_buffer", { text });
  assert.match(loaded.buffer, new RegExp(`^tmuxwright-${server.pid}-[0-9a-f]{12}$`));
  assert.equal(loaded.bytes, new TextEncoder().encode(text).length);
  assert.equal((await tmuxBuffers(server)).get(loaded.buffer), text);
  assert.deepEqual(await server.call("show_buffer", { buffer: loaded.buffer }), {
    buffer: loaded.buffer,
    content: text,
    truncated: false,
  });

  const pasted = await server.call<{ pane_id: string; pasted: boolean }>("paste_buffer", {
    buffer: loaded.buffer,
    pane_id: pane,
  });
  assert.deepEqual([pasted.pane_id, pasted.pasted], [pane, true]);
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
    (r) => r.text.includes("#{pane_id}"),
  );
  assert.ok((await tmuxBuffers(server)).has(loaded.buffer), "a paste keeps the buffer");

  // A dead pane is refused (pasting there would crash tmux 3.3a), and tmux is still up.
  const dead = (await server.call<{ pane_id: string }>("create_pane", { command: "true" })).pane_id;
  await until(() => server.tmux("display-message", "-p", "-t", dead, "#{pane_dead}"), (r) => r.stdout.trim() === "1");
  assert.match(await server.callError("paste_buffer", { buffer: loaded.buffer, pane_id: dead }), /^PANE_DEAD/);
  assert.match(await server.callError("paste_buffer", { buffer: loaded.buffer, pane_id: "%9999" }), /^PANE_NOT_FOUND/);

  assert.deepEqual(await server.call("delete_buffer", { buffer: loaded.buffer }), {
    buffer: loaded.buffer,
    deleted: true,
  });
  assert.ok(!(await tmuxBuffers(server)).has(loaded.buffer));
  assert.match(await server.callError("show_buffer", { buffer: loaded.buffer }), /^NOT_FOUND/);

  // One deleted behind the server's back is reported as gone.
  const other = await server.call<{ buffer: string }>("load_buffer", { text: "x" });
  await server.tmux("delete-buffer", "-b", other.buffer);
  assert.match(await server.callError("show_buffer", { buffer: other.buffer }), /no longer exists in tmux/);
  assert.match(await server.callError("show_buffer", { buffer: "a;b" }), /^INVALID_ARGUMENT/);
  assert.deepEqual(await tmuxBuffers(server), before);
});

Deno.test("buffers: the server deletes its buffers when it exits and keeps a person's", async () => {
  const server = await TestServer.start({ args: ["--tools", "all"] });
  try {
    await server.call("list_panes");
    await server.tmux("set-buffer", "-b", "userbuf", "keep me");
    const { buffer } = await server.call<{ buffer: string }>("load_buffer", { text: "temporary" });
    assert.ok((await tmuxBuffers(server)).has(buffer));
    await server.tmux("new-session", "-d", "-s", "user"); // keeps the tmux server up after the workspace goes
    await server.close(false);
    const left = await until(() => tmuxBuffers(server), (b) => !b.has(buffer));
    assert.equal(left.get("userbuf"), "keep me");
  } finally {
    await server.close();
  }
});

Deno.test("channels: a shell's signal ends a wait; signal_channel wakes a waiting shell; a timeout is an outcome", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const shell = await shellPane(server);

  // A shell script signals when its build is done.
  await server.call("send_keys", { pane_id: shell, text: "sleep 0.3; tmux wait-for -S build-done" });
  const woke = await server.call<{ channel: string; signaled: boolean; elapsed_ms: number }>("wait_for_channel", {
    channel: "build-done",
    timeout_ms: 20_000,
  });
  assert.deepEqual([woke.channel, woke.signaled], ["build-done", true]);

  // The agent signals a shell that waits.
  await server.call("send_keys", { pane_id: shell, text: "tmux wait-for go && echo went-$((1+1))" });
  await server.call("signal_channel", { channel: "go" });
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id: shell }), (r) => /^went-2$/m.test(r.text));

  const timedOut = await server.call<{ signaled: boolean; timed_out: boolean; elapsed_ms: number }>(
    "wait_for_channel",
    { channel: "never", timeout_ms: 300 },
  );
  assert.deepEqual([timedOut.signaled, timedOut.timed_out], [false, true]);
  assert.ok(timedOut.elapsed_ms >= 250 && timedOut.elapsed_ms < 5000, String(timedOut.elapsed_ms));
  const again = await server.call<{ signaled: boolean }>("wait_for_channel", { channel: "never", timeout_ms: 300 });
  assert.equal(again.signaled, false, "no signal, no wake-up");
  // A signal sent while nobody waits is kept for the next wait, as tmux does (even after a wait timed out).
  assert.equal((await server.tmux("wait-for", "-S", "never")).code, 0);
  const late = await until(
    () =>
      server.call<{ signaled: boolean; elapsed_ms: number }>("wait_for_channel", { channel: "never", timeout_ms: 200 }),
    (r) => r.signaled,
  );
  assert.ok(late.elapsed_ms < 200, String(late.elapsed_ms));

  assert.match(await server.callError("wait_for_channel", { channel: "tmuxwright-gate-1-1" }), /reserved/);
  assert.match(await server.callError("signal_channel", { channel: "a b" }), /^INVALID_ARGUMENT/);
});

Deno.test("channels: 100 list_panes calls keep their latency while a channel wait is pending", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  await server.call("create_pane", { command: PLAIN_BASH });
  const timed = async () => {
    const samples: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await server.call("list_panes");
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  await timed(); // warm up
  const baseline = await timed();
  const waiting = server.call<{ signaled: boolean }>("wait_for_channel", { channel: "slow", timeout_ms: 60_000 });
  let settled = false;
  waiting.finally(() => settled = true);
  const during = await timed();
  assert.equal(settled, false, "the wait was pending the whole time");
  console.log(
    `list_panes median: ${baseline.toFixed(2)} ms alone, ${during.toFixed(2)} ms while a channel wait is pending`,
  );
  // A wait-for on the control connection would hold every call until the signal (60 s here).
  assert.ok(during < Math.max(baseline * 4, baseline + 20), `${during} ms vs ${baseline} ms`);
  await server.call("signal_channel", { channel: "slow" });
  assert.equal((await waiting).signaled, true);
});

Deno.test("channels: a cancelled wait ends promptly and the channel still works", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  await using server = await TestServer.start({ dir, args: ["--tools", "all", "--audit", `${dir}/audit.jsonl`] });
  const controller = new AbortController();
  const pending = server.client.callTool(
    { name: "wait_for_channel", arguments: { channel: "cancel-me", timeout_ms: 60_000 } },
    undefined,
    { signal: controller.signal },
  );
  await server.call("list_panes"); // replies in order after the wait has begun
  const started = performance.now();
  controller.abort();
  await assert.rejects(pending);
  const line = await until(
    async () =>
      (await Deno.readTextFile(`${dir}/audit.jsonl`).catch(() => "")).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      ).find((l) => l.tool === "wait_for_channel"),
    (l) => l !== undefined,
  );
  assert.equal(line.error, "CANCELLED");
  assert.ok(performance.now() - started < 5000);
  // The next wait on that channel gets the next signal.
  const next = server.call<{ signaled: boolean }>("wait_for_channel", { channel: "cancel-me", timeout_ms: 20_000 });
  await server.call("signal_channel", { channel: "cancel-me" });
  assert.equal((await next).signaled, true);
});
