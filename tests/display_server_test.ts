import assert from "node:assert/strict";
import { cleanEnv, TestServer, tmuxAt, tmuxVersion, until } from "./helpers/harness.ts";

async function tmuxOut(server: TestServer, ...args: string[]): Promise<string> {
  const out = await server.tmux(...args);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

/** A person attached with a real terminal: `tmux attach` under script(1), its screen bytes in `log`. */
function attachClient(socket: string, session: string, log: string): Deno.ChildProcess {
  return new Deno.Command("script", {
    args: ["-q", "-f", "-c", `tmux -S ${socket} attach -t =${session}`, log],
    env: cleanEnv({ TERM: "xterm-256color" }),
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

Deno.test("display_message evaluates a format for a pane; jobs, re-expansion and regexes are refused", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "readonly"] });
  const user = await tmuxOut(server, "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", "sleep 600");
  const format = "#{session_name}:#{window_index}.#{pane_index} #{pane_width}x#{pane_height} #{?pane_dead,dead,alive}";
  const shown = await server.call<{ pane_id: string; value: string }>("display_message", { format, pane_id: user });
  assert.equal(shown.pane_id, user);
  assert.equal(shown.value, await tmuxOut(server, "display-message", "-p", "-t", user, format));
  assert.equal((await server.call<{ value: string }>("display_message", { format: "-x #{==:1,1}" })).value, "-x 1");
  for (
    const [bad, why] of [
      ["#(touch /tmp/tw-format-canary)", /#\( \) runs shell commands/],
      ["#{E:@payload}", /re-expand/],
      ["#{T:status-left}", /re-expand/],
      ["#{s/(a*)*b/x/:pane_title}", /regular expressions/],
      ["#{m/r:^a,abc}", /regular expressions/],
      ["#{C/ri:x}", /regular expressions/],
    ] as const
  ) {
    const text = await server.callError("display_message", { format: bad, pane_id: user });
    assert.match(text, /^INVALID_ARGUMENT: /);
    assert.match(text, why);
  }
  await assert.rejects(Deno.stat("/tmp/tw-format-canary"));
  assert.equal((await server.call<{ value: string }>("display_message", { format: "#{m:a*,abc}" })).value, "1");
});

Deno.test("write_to_display shows text once in a side pane of the workspace, never returns it, and clears", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  const text = "Plan:\n  1. build\n  2. test \x1b]0;pwned\x07done";
  const first = await server.call<Record<string, unknown>>("write_to_display", { text });
  assert.ok(!JSON.stringify(first).includes("build"), "the text is not returned to the agent");
  const pane = first.pane_id as string;
  const hubWindow = await tmuxOut(server, "display-message", "-p", "-t", `=tmuxwright-${server.pid}:0`, "#{window_id}");
  assert.equal(
    await tmuxOut(server, "display-message", "-p", "-t", pane, "#{window_id} #{pane_title}"),
    `${hubWindow} tmuxwright notes`,
  );
  const screen = await until(
    () => tmuxOut(server, "capture-pane", "-p", "-t", pane),
    (s) => s.includes("pwneddone"),
  );
  assert.equal(screen.split("\n").filter((l) => l.includes("1. build")).length, 1, screen);
  // Control characters are dropped: the escape sequence is inert text, the title stays.
  assert.match(screen, /^Plan:\n {2}1\. build\n {2}2\. test \]0;pwneddone$/m);
  assert.equal(await tmuxOut(server, "display-message", "-p", "-t", pane, "#{pane_title}"), "tmuxwright notes");

  const second = await server.call<{ pane_id: string }>("write_to_display", { text: "fresh page", clear: true });
  assert.equal(second.pane_id, pane);
  const cleared = await until(
    () => tmuxOut(server, "capture-pane", "-p", "-S", "-", "-t", pane),
    (s) => s.includes("fresh page"),
  );
  assert.doesNotMatch(cleared, /build/);

  // Killed by someone: the next note makes a new pane.
  await server.call("kill_pane", { pane_id: pane });
  const third = await server.call<{ pane_id: string }>("write_to_display", { text: "again" });
  assert.notEqual(third.pane_id, pane);
  await until(() => tmuxOut(server, "capture-pane", "-p", "-t", third.pane_id), (s) => s.includes("again"));
  assert.match(await server.callError("write_to_display", {}), /^INVALID_ARGUMENT/);
});

Deno.test("notify says nobody saw it without a client, and shows the message in an attached person's status line", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all"] });
  await tmuxOut(server, "new-session", "-d", "-s", "user", "sleep 600");
  const alone = await server.call<{ delivered: boolean; clients: unknown[]; note: string }>("notify", {
    text: "hello",
  });
  assert.deepEqual([alone.delivered, alone.clients], [false, []]);
  assert.match(alone.note, /no client is attached/);

  const log = `${server.dir}/screen.log`;
  const person = attachClient(server.socket, "user", log);
  try {
    await until(
      () => tmuxAt(server.socket, "list-clients", "-F", "#{client_control_mode}"),
      (r) => r.stdout.includes("0"),
    );
    const message = "build #{pane_id} done $HOME";
    if ((await tmuxVersion()).startsWith("3.2")) {
      // tmux 3.2's display-message cannot aim at a client: refused, never shown to the wrong one.
      assert.match(await server.callError("notify", { text: message }), /cannot show a message to one client/);
      return;
    }
    const shown = await server.call<{ delivered: boolean; clients: { session: string }[] }>("notify", {
      text: message,
      duration_ms: 5000,
    });
    assert.equal(shown.delivered, true);
    assert.deepEqual(shown.clients.map((c) => c.session), ["user"]);
    await until(() => Deno.readTextFile(log).catch(() => ""), (screen) => screen.includes(message));
  } finally {
    person.kill();
    await person.status;
  }
});

/** Accepts connections on a Unix socket and never answers them. */
const HUNG_SERVER = `import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(64)
print("listening", flush=True)
held = []
while True:
    held.append(s.accept())
`;

Deno.test("servers: list this user's servers, live and stale, and describe one", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "readonly"] });
  const other = `${server.dir}/other`;
  assert.equal((await tmuxAt(other, "-f", "/dev/null", "new-session", "-d", "-s", "o")).code, 0);
  const stale = `${server.dir}/stale`;
  await tmuxAt(stale, "-f", "/dev/null", "new-session", "-d", "-s", "z");
  const stalePid = (await tmuxAt(stale, "display-message", "-p", "#{pid}")).stdout.trim();
  Deno.kill(Number(stalePid), "SIGKILL"); // leaves its socket file behind
  // A server that accepts connections and never answers (a tmux client can hang for good like this).
  const hung = `${server.dir}/hung`;
  const listener = new Deno.Command("python3", {
    args: ["-c", HUNG_SERVER, hung],
    stdout: "piped",
  }).spawn();
  const reader = listener.stdout.getReader();
  await reader.read(); // "listening"
  try {
    const started = performance.now();
    const { servers } = await server.call<{ servers: Record<string, unknown>[] }>("list_servers");
    const took = performance.now() - started;
    assert.ok(took < 10_000, `list_servers waited ${Math.round(took)} ms on a server that never answers`);
    const byPath = new Map(servers.map((s) => [s.socket_path, s]));
    const own = byPath.get(server.socket)!;
    assert.equal(own.current, true);
    assert.equal(String(own.pid), await tmuxOut(server, "display-message", "-p", "#{pid}"));
    assert.equal(own.version, await tmuxOut(server, "display-message", "-p", "#{version}"));
    assert.equal(byPath.get(other)?.alive, true);
    assert.equal(byPath.get(other)?.sessions, 1);
    assert.equal(byPath.get(stale)?.alive, false);
    assert.equal(byPath.get(hung)?.alive, false);

    const info = await server.call<Record<string, unknown>>("get_server_info", { socket: other });
    assert.equal(String(info.pid), (await tmuxAt(other, "display-message", "-p", "#{pid}")).stdout.trim());
    assert.deepEqual([info.sessions, info.windows, info.panes, info.current], [1, 1, 1, false]);
    const current = await server.call<Record<string, unknown>>("get_server_info");
    assert.deepEqual([current.socket_path, current.current], [server.socket, true]);
    assert.match(await server.callError("get_server_info", { socket: stale }), /^NOT_FOUND: No tmux server answers/);
    assert.match(await server.callError("get_server_info", { socket: "../x" }), /^INVALID_ARGUMENT/);
    assert.match(await server.callError("kill_server", { socket: other }), /^TIER_DENIED/);
  } finally {
    await tmuxAt(other, "kill-server");
    listener.kill();
    reader.releaseLock();
    await listener.stdout.cancel();
    await listener.status;
  }
});

Deno.test("servers: beyond the 64 sockets probed, list_servers says how many it left out", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "readonly"] });
  // Socket files of ended servers, as tmux leaves them at kill-server.
  const stale = Array.from({ length: 70 }, (_, i) => `${server.dir}/old-${i}`);
  const made = await new Deno.Command("python3", {
    args: ["-c", "import socket, sys\nfor p in sys.argv[1:]: socket.socket(socket.AF_UNIX).bind(p)", ...stale],
  }).output();
  assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
  const listed = await server.call<{ servers: { socket_path: string; current: boolean }[]; not_probed?: number }>(
    "list_servers",
  );
  assert.equal(listed.servers.length, 64);
  assert.ok((listed.not_probed ?? 0) >= 70 + 1 - 64, `not_probed: ${listed.not_probed}`);
  assert.ok(listed.servers.some((s) => s.socket_path === server.socket && s.current), "its own server stays listed");
});

Deno.test("kill_server ends another server, or its own (the next call starts a fresh one)", async () => {
  await using server = await TestServer.start({ args: ["--tools", "all", "--safety", "destructive"] });
  const other = `${server.dir}/other`;
  await tmuxAt(other, "-f", "/dev/null", "new-session", "-d", "-s", "o");
  const killed = await server.call<{ killed: boolean; socket_path: string }>("kill_server", { socket: other });
  assert.deepEqual([killed.killed, killed.socket_path], [true, other]);
  assert.notEqual((await tmuxAt(other, "list-sessions")).code, 0);

  await server.call("create_pane", { command: "sleep 600" });
  const pid = await tmuxOut(server, "display-message", "-p", "#{pid}");
  const own = await server.call<{ note: string }>("kill_server");
  assert.match(own.note, /next call starts a new one/);
  const { panes } = await server.call<{ panes: unknown[] }>("list_panes");
  assert.deepEqual(panes, []);
  assert.notEqual(await tmuxOut(server, "display-message", "-p", "#{pid}"), pid);
});
