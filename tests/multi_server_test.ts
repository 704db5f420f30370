import assert from "node:assert/strict";
import { TestServer, tmuxAt, until } from "./helpers/harness.ts";
import type { ExecResult, LogTail } from "./helpers/results.ts";
import { killUnseen } from "./helpers/unseen_death.ts";
import { startLeftovers } from "./helpers/leftovers.ts";

/** Several servers on one tmux socket and one state directory, as MCP clients side by side start them. */
class Fleet {
  readonly servers: TestServer[] = [];
  private constructor(readonly dir: string) {}

  static async create(): Promise<Fleet> {
    return new Fleet(await Deno.makeTempDir({ dir: "/tmp", prefix: "twm" }));
  }

  get socket(): string {
    return `${this.dir}/s`;
  }

  async start(args: string[] = [], env: Record<string, string> = {}): Promise<TestServer> {
    const server = await TestServer.start({ dir: this.dir, args, env });
    this.servers.push(server);
    return server;
  }

  async workspaces(): Promise<string[]> {
    const out = await tmuxAt(this.socket, "list-sessions", "-F", "#{session_name}");
    return out.stdout.split("\n").filter((n) => n.startsWith("tmuxwright-")).sort();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close(false)));
    await tmuxAt(this.socket, "kill-server");
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}

/** Every server runs its own command at the same moment; each must get exactly its own output. */
async function parallelRound(servers: TestServer[], round: number): Promise<string[]> {
  const results = await Promise.all(servers.map((s, i) =>
    s.call<ExecResult & { name: string }>("execute_command", {
      command: `echo "server ${i} round ${round}: $((${i} * 100 + ${round}))"`,
    })
  ));
  results.forEach((r, i) => {
    assert.equal(r.output, `server ${i} round ${round}: ${i * 100 + round}`);
    assert.equal(r.exit_code, 0);
    assert.equal(r.name, "default");
  });
  return results.map((r) => r.pane_id);
}

async function checkSixWorkspaces(fleet: Fleet, servers: TestServer[]): Promise<void> {
  const first = await parallelRound(servers, 1);
  const second = await parallelRound(servers, 2);
  assert.deepEqual(second, first, "each server keeps its own default pane");
  assert.equal(new Set(first).size, servers.length, "six distinct default panes");
  assert.deepEqual(await fleet.workspaces(), servers.map((s) => `tmuxwright-${s.pid}`).sort());
  // Each default pane lives in its own server's workspace.
  for (const [i, server] of servers.entries()) {
    const session = await tmuxAt(fleet.socket, "display-message", "-p", "-t", first[i], "#{session_name}");
    assert.equal(session.stdout.trim(), `tmuxwright-${server.pid}`);
  }
}

Deno.test("six servers started one by one on one tmux server each run their own commands", async () => {
  await using fleet = await Fleet.create();
  // A person's own session keeps the tmux server up, as on a real desktop, and their shell starts slowly and chattily.
  await tmuxAt(fleet.socket, "-f", "/dev/null", "new-session", "-d", "-s", "users-own");
  const home = `${fleet.dir}/home`;
  await Deno.mkdir(home);
  await Deno.writeTextFile(
    `${home}/.bashrc`,
    "echo 'loading plugins...'; sleep 0.3; echo 'welcome back'; PS1='\\u@\\h:\\w\\$ '\n",
  );
  const servers: TestServer[] = [];
  for (let i = 0; i < 6; i++) {
    const server = await fleet.start([], { HOME: home });
    // Every earlier server is idle (it has made a call, or none yet) while this one starts.
    if (i % 2 === 0) await server.call("list_panes");
    servers.push(server);
  }
  await checkSixWorkspaces(fleet, servers);
  assert.equal((await tmuxAt(fleet.socket, "has-session", "-t", "=users-own")).code, 0);
});

for (const tmux of ["a fresh tmux server", "a running tmux server"]) {
  Deno.test(`six servers started at once on ${tmux} each create their own workspace`, async () => {
    await using fleet = await Fleet.create();
    // On a fresh one nobody has started tmux yet: the first calls race to start it.
    if (tmux === "a running tmux server") {
      await tmuxAt(fleet.socket, "-f", "/dev/null", "new-session", "-d", "-s", "users-own");
    }
    const servers = await Promise.all(Array.from({ length: 6 }, () => fleet.start()));
    await checkSixWorkspaces(fleet, servers);
  });
}

type Listed = { panes: { pane_id: string; name: string | null; owned: boolean; workspace_of?: string }[] };

Deno.test("two servers both name a pane web: each name resolves to the caller's own pane", async () => {
  await using fleet = await Fleet.create();
  const [a, b] = [await fleet.start(), await fleet.start()];
  const webA = await a.call<{ pane_id: string }>("create_pane", { name: "web", command: "bash --norc" });
  const webB = await b.call<{ pane_id: string }>("create_pane", { name: "web", command: "bash --norc" });
  assert.notEqual(webA.pane_id, webB.pane_id);
  const inA = await a.call<ExecResult>("execute_command", { pane_id: "web", command: "echo I am A" });
  const inB = await b.call<ExecResult>("execute_command", { pane_id: "web", command: "echo I am B" });
  assert.deepEqual([inA.pane_id, inA.output], [webA.pane_id, "I am A"]);
  assert.deepEqual([inB.pane_id, inB.output], [webB.pane_id, "I am B"]);

  // list_panes marks the caller's panes, and says whose the other server's panes are.
  const listed = await a.call<Listed>("list_panes");
  const own = listed.panes.find((p) => p.pane_id === webA.pane_id)!;
  const other = listed.panes.find((p) => p.pane_id === webB.pane_id)!;
  assert.equal(own.owned, true);
  assert.equal(own.workspace_of, undefined);
  assert.equal(other.owned, false);
  assert.equal(other.workspace_of, `tmuxwright-${b.pid}`);
  const ownedOnly = await a.call<Listed>("list_panes", { owned_only: true });
  assert.deepEqual(ownedOnly.panes.map((p) => p.pane_id), [webA.pane_id]);
  // Hubs of every workspace are hidden.
  assert.ok(listed.panes.every((p) => p.name !== null || p.workspace_of === undefined), JSON.stringify(listed));

  // A name is free again only in its own workspace; a second "web" in A is refused.
  const dup = await a.callError("create_pane", { name: "web" });
  assert.match(
    dup,
    new RegExp(`^NAME_IN_USE: Cannot create pane "web": the name is already used by pane ${webA.pane_id}`),
  );
  // Unknown names list only the caller's names.
  await b.call("create_pane", { name: "b-only", command: "sleep 600" });
  const missing = await a.callError("capture_pane", { pane_id: "nope" });
  assert.match(missing, /^PANE_NOT_FOUND: Pane "nope" not found/);
  assert.ok(missing.includes(`"web" (${webA.pane_id})`), missing);
  assert.ok(!missing.includes("b-only") && !missing.includes(webB.pane_id), missing);
  // A name held only by the other server is not resolved, but the error says where it is.
  const elsewhere = await a.callError("capture_pane", { pane_id: "b-only" });
  assert.match(elsewhere, /^PANE_NOT_FOUND: Pane "b-only" not found among this server's panes/);
  assert.ok(elsewhere.includes(`tmuxwright-${b.pid}`), elsewhere);

  // Logs by name: each server reads its own, also after the pane was killed.
  await a.call("kill_pane", { pane_id: "web" });
  assert.equal(
    (await tmuxAt(fleet.socket, "display-message", "-p", "-t", webB.pane_id, "#{pane_id}")).stdout.trim(),
    webB.pane_id,
  );
  const logA = await a.call<LogTail>("read_logs", { pane_id: "web" });
  const logB = await b.call<LogTail>("read_logs", { pane_id: "web" });
  assert.match(logA.content, /I am A/);
  assert.doesNotMatch(logA.content, /I am B/);
  assert.match(logB.content, /I am B/);
  assert.doesNotMatch(logB.content, /I am A/);
  // Pane ids stay global: A can read B's pane by id.
  const byId = await a.call<{ text: string }>("capture_pane", { pane_id: webB.pane_id });
  assert.match(byId.text, /I am B/);
});

Deno.test("a SIGKILLed server's workspace is removed by the next start; live ones keep running", async () => {
  await using fleet = await Fleet.create();
  const crashed = await fleet.start();
  const idle = await fleet.start();
  const busy = await fleet.start();
  const silent = await fleet.start(); // never makes a call: no workspace yet, and it must still get one later
  await crashed.call("create_pane", { name: "api", command: "bash --norc" });
  await crashed.call("execute_command", { pane_id: "api", command: "echo crashed-output" });
  const idlePane = await idle.call<{ pane_id: string }>("create_pane", { name: "api", command: "bash --norc" });
  await idle.call("execute_command", { pane_id: "api", command: "echo idle-output" });
  await busy.call("execute_command", { command: "echo warm" });
  // A long command in flight on the busy server while the next one starts and reaps.
  const running = busy.call<ExecResult>("execute_command", {
    command: "for i in 1 2 3 4 5 6; do sleep 0.5; done; echo busy-done",
  });
  running.catch(() => {}); // awaited below; a failed assertion before must not leave it unhandled
  // An idle live server whose control connection is momentarily gone is still alive.
  await tmuxAt(fleet.socket, "detach-client", "-s", `=tmuxwright-${idle.pid}`);

  const stale = `tmuxwright-${crashed.pid}`; // read before the kill: the transport forgets it
  await killUnseen(crashed.pid); // its tmux side would end its workspace itself (server_death_test.ts)
  assert.ok((await fleet.workspaces()).includes(stale));

  const next = await fleet.start();
  await next.call("execute_command", { command: "echo next" });
  const left = await until(() => fleet.workspaces(), (names) => !names.includes(stale));
  assert.deepEqual(left, [idle, busy, next].map((s) => `tmuxwright-${s.pid}`).sort());

  const done = await running;
  assert.equal(done.output, "busy-done");
  const idleAgain = await idle.call<ExecResult>("execute_command", { pane_id: "api", command: "echo still here" });
  assert.deepEqual([idleAgain.pane_id, idleAgain.output], [idlePane.pane_id, "still here"]);
  const late = await silent.call<ExecResult>("execute_command", { command: "echo silent-now" });
  assert.equal(late.output, "silent-now");

  // The dead server's log is kept. By name, a server reads its own pane first; a name it does not hold
  // resolves to the dead server's log, never to a live server's pane of that name.
  const fromNext = await next.call<LogTail & { pane_gone?: boolean }>("read_logs", { pane_id: "api" });
  assert.match(fromNext.content, /crashed-output/);
  assert.equal(fromNext.pane_gone, true);
  const fromIdle = await idle.call<LogTail>("read_logs", { pane_id: "api" });
  assert.match(fromIdle.content, /idle-output/);
  assert.doesNotMatch(fromIdle.content, /crashed-output/);
});

Deno.test("a server that keeps running removes the workspace of a server killed after it started, with its processes", async () => {
  await using fleet = await Fleet.create();
  const leftovers = startLeftovers();
  try {
    const running = await fleet.start([], { TMUXWRIGHT_REAP_EVERY: "1" });
    await running.call("execute_command", { command: "echo first" }); // its own start-up look is over
    const crashed = await fleet.start();
    await crashed.call("create_pane", { name: "api", command: leftovers.foreground });
    await crashed.call("execute_command", { command: `${leftovers.background}; echo started` });
    await until(() => leftovers.running(), (pids) => pids.length === 3);
    const stale = `tmuxwright-${crashed.pid}`;
    await killUnseen(crashed.pid); // its tmux side would end its workspace itself (server_death_test.ts)
    assert.ok((await fleet.workspaces()).includes(stale));
    // No server starts after the kill: the running one looks again on its own.
    const left = await until(() => fleet.workspaces(), (names) => !names.includes(stale), 8_000);
    assert.deepEqual(left, [`tmuxwright-${running.pid}`]);
    // Jobs that ignore the hang-up go too: a session killed alone would leave them, in no pane's tree.
    await until(() => leftovers.running(), (pids) => pids.length === 0, 5_000);
    const still = await running.call<ExecResult>("execute_command", { command: "echo still here" });
    assert.equal(still.output, "still here");
  } finally {
    leftovers.kill();
  }
});

Deno.test("a workspace whose liveness cannot be judged is left alone", async () => {
  await using fleet = await Fleet.create();
  // A server with another state directory on the same tmux server: its owner proof is not ours to test.
  const stranger = await fleet.start(["--state-dir", `${fleet.dir}/other-state`]);
  await stranger.call("create_pane", { name: "theirs", command: "sleep 600" });
  const theirs = `tmuxwright-${stranger.pid}`;
  await killUnseen(stranger.pid); // its tmux side would end its workspace itself (server_death_test.ts)
  const next = await fleet.start();
  await next.call("execute_command", { command: "echo next" });
  assert.deepEqual(await fleet.workspaces(), [theirs, `tmuxwright-${next.pid}`].sort());
});

Deno.test("a kept workspace of an earlier process with the same pid is neither used nor removed", async () => {
  await using fleet = await Fleet.create();
  const server = await fleet.start();
  // What a kept workspace of a dead process that had this pid looks like (pids are reused).
  const name = `tmuxwright-${server.pid}`;
  const made = await tmuxAt(fleet.socket, "-f", "/dev/null", "new-session", "-d", "-s", name, "sleep 600");
  assert.equal(made.code, 0, made.stderr);
  await tmuxAt(fleet.socket, "set-option", "-t", `=${name}:`, "@tmuxwright_kept", "1");
  await tmuxAt(fleet.socket, "set-option", "-t", `=${name}:`, "@tmuxwright_workspace_instance", `${server.pid}-0`);

  const ran = await server.call<ExecResult>("execute_command", { command: "echo mine" });
  assert.equal(ran.output, "mine");
  const session = await tmuxAt(fleet.socket, "display-message", "-p", "-t", ran.pane_id, "#{session_name}");
  assert.equal(session.stdout.trim(), `${name}-2`);
  const created = await server.call<{ attach_command: string }>("create_pane", { name: "x", command: "sleep 600" });
  assert.ok(created.attach_command.endsWith(`=${name}-2`), created.attach_command);
  await server.close(false);
  await until(() => fleet.workspaces(), (names) => !names.includes(`${name}-2`));
  assert.deepEqual(await fleet.workspaces(), [name]);
});
