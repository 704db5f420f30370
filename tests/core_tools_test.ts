import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

type Pane = { pane_id: string; window_id: string; session_id: string; name: string | null };
type Capture = Pane & { text: string; lines: number; truncated: boolean; status: string; exit_code?: number };
type Listing = { panes: (Pane & { status: string; exit_code?: number; owned: boolean })[] };

const capture = (s: TestServer, pane: string, lines?: number) =>
  s.call<Capture>("capture_pane", { pane_id: pane, lines });

/** Waits until the pane's capture satisfies `ok` (a condition with a deadline, not a sleep). */
const captureUntil = (s: TestServer, pane: string, ok: (text: string) => boolean, lines = 100) =>
  until(() => capture(s, pane, lines), (c) => ok(c.text));

Deno.test("create_pane opens a window in the workspace and returns its ids", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<Pane & { pid: number; attach_command: string }>("create_pane", { name: "server" });
  assert.match(pane.pane_id, /^%\d+$/);
  assert.match(pane.window_id, /^@\d+$/);
  assert.match(pane.session_id, /^\$\d+$/);
  assert.equal(pane.name, "server");
  assert.ok(pane.pid > 0);
  const windows = await s.tmux("list-windows", "-a", "-F", "#{window_id} #{session_name}");
  assert.match(windows.stdout, new RegExp(`^${pane.window_id} tmuxwright-\\d+$`, "m"));
  assert.match(pane.attach_command, /^tmux -S \S+ attach -t =tmuxwright-\d+$/);
});

Deno.test("send_keys types a command and capture_pane reads its output", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<Pane>("create_pane", {});
  await s.call("send_keys", { pane_id: pane.pane_id, text: "echo hel''lo" });
  const result = await captureUntil(s, pane.pane_id, (t) => /^hello$/m.test(t));
  assert.equal(result.status, "running");
});

Deno.test("capture_pane lines: N returns exactly the last N lines of output", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<Pane>("create_pane", { name: "seq", command: "seq 1 200; exec sleep 600" });
  await captureUntil(s, "seq", (t) => t.endsWith("200"), 10);
  for (const n of [10, 50, 200]) {
    const result = await capture(s, "seq", n);
    const expected = Array.from({ length: n }, (_, i) => String(201 - n + i)).join("\n");
    assert.equal(result.text, expected, `lines: ${n}`);
    assert.equal(result.lines, n);
  }
  assert.equal((await capture(s, pane.pane_id, 10)).truncated, true);
});

Deno.test("kill_pane removes the pane from tmux and from list_panes", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<Pane>("create_pane", { name: "doomed" });
  const killed = await s.call<Pane & { killed: boolean }>("kill_pane", { pane_id: "doomed" });
  assert.equal(killed.killed, true);
  assert.equal(killed.pane_id, pane.pane_id);
  const panes = await s.tmux("list-panes", "-a", "-F", "#{pane_id}");
  assert.ok(!panes.stdout.split("\n").includes(pane.pane_id));
  const listing = await s.call<Listing>("list_panes", {});
  assert.ok(!listing.panes.some((p) => p.pane_id === pane.pane_id));
  assert.match(await s.callError("capture_pane", { pane_id: "doomed" }), /PANE_NOT_FOUND: Pane "doomed" not found/);
});

Deno.test("list_panes shows several panes with their names and ids", async () => {
  await using s = await TestServer.start();
  const created = [];
  for (const name of ["server", "client", "logs"]) created.push(await s.call<Pane>("create_pane", { name }));
  const split = await s.call<Pane>("create_pane", { name: "side", split_from: "client", direction: "right" });
  assert.equal(split.window_id, created[1].window_id);
  const listing = await s.call<Listing>("list_panes", { owned_only: true });
  const byName = Object.fromEntries(listing.panes.map((p) => [p.name, p]));
  for (const pane of [...created, split]) {
    assert.equal(byName[pane.name!].pane_id, pane.pane_id);
    assert.equal(byName[pane.name!].window_id, pane.window_id);
    assert.equal(byName[pane.name!].owned, true);
  }
  assert.equal(listing.panes.length, 4);
});

Deno.test("an exited pane reports its exit code and keeps its final output", async () => {
  await using s = await TestServer.start();
  await s.call<Pane>("create_pane", { name: "crash", command: "echo 'Traceback: boom'; echo done && exit 3" });
  const listing = await until(
    () => s.call<Listing>("list_panes", {}),
    (l) => l.panes.some((p) => p.name === "crash" && p.status === "exited"),
  );
  const crashed = listing.panes.find((p) => p.name === "crash")!;
  assert.equal(crashed.exit_code, 3);
  const result = await capture(s, "crash", 10);
  assert.equal(result.status, "exited");
  assert.equal(result.exit_code, 3);
  assert.equal(result.text, "Traceback: boom\ndone");
});

Deno.test("a pane that is not there gives an error naming list_panes", async () => {
  await using s = await TestServer.start();
  await s.call("create_pane", { name: "debug" });
  const text = await s.callError("send_keys", { pane_id: "debug-1", text: "ls" });
  assert.match(text, /^PANE_NOT_FOUND: Pane "debug-1" not found\. Named panes: "debug" \(%\d+\)\. Use list_panes/);
  assert.match(await s.callError("send_keys", { pane_id: "%999", keys: ["Enter"] }), /Pane "%999" not found/);
  assert.match(
    await s.callError("send_keys", { pane_id: "debug", keys: ["NotAKey"] }),
    /Unknown key name at keys\[0\]: valid keys:/,
  );
});

Deno.test("keys C-c interrupts sleep 30 and is not followed by Enter", async () => {
  await using s = await TestServer.start();
  const pane = await s.call<Pane>("create_pane", {});
  await s.call("send_keys", { pane_id: pane.pane_id, text: "sleep 30" });
  await until(
    () => s.tmux("display-message", "-p", "-t", pane.pane_id, "#{pane_current_command}"),
    (r) => r.stdout.trim() === "sleep",
  );
  const sent = await s.call<{ sent: { keys: string[]; enter: boolean } }>("send_keys", {
    pane_id: pane.pane_id,
    keys: ["^C"],
  });
  assert.deepEqual(sent.sent, { text_chars: 0, keys: ["C-c"], enter: false });
  await until(
    () => s.tmux("display-message", "-p", "-t", pane.pane_id, "#{pane_current_command}"),
    (r) => r.stdout.trim() === "bash",
  );
  // Had an Enter followed C-c, an empty prompt line would stand between ^C and the next command.
  await s.call("send_keys", { pane_id: pane.pane_id, text: "echo next-$((6*7))" });
  const screen = await captureUntil(s, pane.pane_id, (t) => /^next-42$/m.test(t));
  const lines = screen.text.split("\n");
  const at = lines.indexOf("next-42");
  assert.match(lines[at - 2], /^\^C$/);
  assert.match(lines[at - 1], /[#$] echo next-\$\(\(6\*7\)\)$/);
});

Deno.test("hostile names are refused, hostile text is typed exactly, and nothing runs", async () => {
  await using s = await TestServer.start();
  const canary = `${s.dir}/CANARY`;
  const before = (await s.tmux("list-panes", "-a", "-F", "#{pane_id}")).stdout;
  const name = `we'ird "n;a$(touch ${canary}) #{pane_id} #(touch ${canary}) \`id\` ; kill-server\nx`;
  const refused = await s.callError("create_pane", { name });
  assert.match(refused, /expected a name of letters, digits/);
  assert.ok(!refused.includes(canary), "the error does not echo the value");
  assert.equal((await s.tmux("list-panes", "-a", "-F", "#{pane_id}")).stdout, before, "no pane was created");

  const pane = await s.call<Pane>("create_pane", { name: "typist", command: `cat > ${s.dir}/typed.txt` });
  const text =
    `a'b"c; $(touch ${canary}) \`touch ${canary}\` #{session_name} #(touch ${canary}) \\; kill-server $HOME ~`;
  await s.call("send_keys", { pane_id: pane.pane_id, text });
  await s.call("send_keys", { pane_id: "typist", keys: ["C-d"] });
  const typed = await until(() => Deno.readTextFile(`${s.dir}/typed.txt`).catch(() => ""), (t) => t.length > 0);
  assert.equal(typed, text + "\n");
  await assert.rejects(Deno.stat(canary), Deno.errors.NotFound);
  assert.equal((await s.tmux("list-sessions")).code, 0, "tmux server still running");
});

Deno.test("a name reaches the pane that has it now: after its pane is killed from outside, renamed, or the default pane recreated", async () => {
  await using s = await TestServer.start();
  const first = await s.call<Pane>("create_pane", { name: "web" });
  const run = (pane_id: string) =>
    s.call<Pane & { output: string }>("execute_command", { pane_id, command: "echo hi" });
  assert.equal((await run("web")).pane_id, first.pane_id); // the name's pane is remembered
  await s.tmux("kill-pane", "-t", first.pane_id);
  const second = await s.call<Pane>("create_pane", { name: "web" });
  assert.equal((await run("web")).pane_id, second.pane_id);
  // A name changed behind the server's back no longer reaches the pane.
  await s.tmux("set-option", "-p", "-t", second.pane_id, "@tmuxwright_name", "elsewhere");
  assert.match(await s.callError("execute_command", { pane_id: "web", command: "true" }), /PANE_NOT_FOUND/);
  const ran = await s.call<Pane & { output: string }>("execute_command", { command: "echo one" });
  await s.tmux("kill-pane", "-t", ran.pane_id);
  const again = await s.call<Pane & { output: string }>("execute_command", { command: "echo two" });
  assert.notEqual(again.pane_id, ran.pane_id);
  assert.equal(again.output, "two");
});
