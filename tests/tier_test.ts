import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer, tmuxAt, until } from "./helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function listed(server: TestServer) {
  return (await server.client.listTools()).tools;
}

/** A pane the server did not create: a plain tmux session on the server's socket. */
async function userPane(server: TestServer): Promise<string> {
  const out = await server.tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "user", "sleep 600");
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

Deno.test("readonly lists no mutating tool and refuses a direct call naming tier and flag", async () => {
  await using server = await TestServer.start({ args: ["--safety", "readonly", "--tools", "all"] });
  const tools = await listed(server);
  assert.ok(tools.length > 0);
  for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is listed at readonly`);
  assert.ok(!tools.some((t) => t.name === "send_keys" || t.name === "kill_pane" || t.name === "create_pane"));
  const text = await server.callError("create_pane", { command: "touch /tmp/never" });
  assert.match(text, /^TIER_DENIED: /);
  assert.match(text, /needs safety tier "mutating"/);
  assert.match(text, /--safety mutating/);
  assert.match(text, /TMUXWRIGHT_SAFETY=mutating/);
  // The refused call created nothing: the workspace session was never made.
  const sessions = await server.tmux("list-sessions", "-F", "#{session_name}");
  assert.ok(!sessions.stdout.includes("tmuxwright-"), sessions.stdout);
  await server.call("list_panes");
});

Deno.test("mutating refuses to kill a pane it does not own and allows its own", async () => {
  await using server = await TestServer.start();
  const names = (await listed(server)).map((t) => t.name);
  assert.ok(names.includes("kill_pane") && names.includes("send_keys"));
  const foreign = await userPane(server);
  const text = await server.callError("kill_pane", { pane_id: foreign });
  assert.match(text, /^TIER_DENIED: Cannot kill pane %\d+, which this server did not create/);
  assert.match(text, /--safety destructive/);
  assert.equal((await server.tmux("display-message", "-p", "-t", foreign, "#{pane_id}")).stdout.trim(), foreign);

  const own = await server.call<{ pane_id: string }>("create_pane", { command: "sleep 600" });
  const panes = await server.call<{ panes: { pane_id: string; owned: boolean }[] }>("list_panes");
  assert.equal(panes.panes.find((p) => p.pane_id === own.pane_id)?.owned, true);
  assert.equal(panes.panes.find((p) => p.pane_id === foreign)?.owned, false);
  await server.call("kill_pane", { pane_id: own.pane_id });
  await until(() => server.tmux("list-panes", "-a", "-F", "#{pane_id}"), (r) => !r.stdout.includes(own.pane_id));
});

Deno.test("destructive allows killing a pane this server did not create", async () => {
  await using server = await TestServer.start({ args: ["--safety", "destructive"] });
  const foreign = await userPane(server);
  await server.tmux("new-window", "-d", "-t", "user:", "sleep 600"); // keep the session alive
  const killed = await server.call<{ killed: boolean; pane_id: string }>("kill_pane", { pane_id: foreign });
  assert.equal(killed.killed, true);
  assert.equal(killed.pane_id, foreign);
  const left = await server.tmux("list-panes", "-a", "-F", "#{pane_id}");
  assert.ok(!left.stdout.split("\n").includes(foreign), left.stdout);
});

async function startFails(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command("deno", {
    args: ["run", ...startPermissions(cleanEnv(env)), `${ROOT}main.ts`, ...args],
    env: cleanEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr), stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("an invalid tier fails at start-up with exit code 2 and a clear message", async () => {
  const byFlag = await startFails(["--safety", "godmode"]);
  assert.equal(byFlag.code, 2, byFlag.stderr);
  assert.match(byFlag.stderr, /Invalid --safety "godmode": expected one of readonly, mutating, destructive/);
  assert.equal(byFlag.stdout, "");
  const byEnv = await startFails([], { TMUXWRIGHT_SAFETY: "root" });
  assert.equal(byEnv.code, 2, byEnv.stderr);
  assert.match(byEnv.stderr, /Invalid --safety "root"/);
});

Deno.test("the tier of every tool matches its annotations: readonly tools are exactly the read-only ones", async () => {
  const tiers = new Map<string, string>();
  for (const tier of ["destructive", "mutating", "readonly"]) {
    await using server = await TestServer.start({ args: ["--safety", tier, "--tools", "all"] });
    for (const tool of await listed(server)) tiers.set(tool.name, tier); // last (lowest) tier that lists it wins
  }
  await using server = await TestServer.start({ args: ["--safety", "destructive", "--tools", "all"] });
  for (const tool of await listed(server)) {
    const a = tool.annotations ?? {};
    assert.ok(tool.title, `${tool.name} has a title`);
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
      assert.equal(typeof a[hint], "boolean", `${tool.name} sets ${hint}`);
    }
    assert.equal(a.readOnlyHint, tiers.get(tool.name) === "readonly", `${tool.name}: readOnlyHint vs tier`);
    if (a.readOnlyHint) assert.equal(a.destructiveHint, false, `${tool.name}: read-only cannot be destructive`);
  }
});

Deno.test("tools/list of a tier is the same whether set by flag or environment", async () => {
  await using byEnv = await TestServer.start({ env: { TMUXWRIGHT_SAFETY: "readonly" } });
  await using byFlag = await TestServer.start({ args: ["--safety", "readonly"] });
  assert.deepEqual((await listed(byEnv)).map((t) => t.name), (await listed(byFlag)).map((t) => t.name));
  assert.equal((await tmuxAt(byEnv.socket, "list-sessions")).code !== 0, true); // nothing created yet
});
