import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { type Leftovers, startLeftovers } from "./helpers/leftovers.ts";

// A server that dies without a goodbye (SIGKILL: an agent CLI crashing, `kill -9`, the OOM
// killer) leaves nothing behind on a person's tmux server: the tmux side (the link script tmux
// runs) sees its link end, sees the process gone, and ends its workspace and the processes
// started there, including those that ignore the hang-up of their terminal. With --keep they stay
// on purpose, and the workspace says so.

async function workspaceOf(server: TestServer, pid: number): Promise<string> {
  const listed = await server.tmux("list-sessions", "-F", "#{session_name} #{@tmuxwright_kept}");
  return listed.stdout.split("\n").find((line) => line.startsWith(`tmuxwright-${pid} `)) ?? "";
}

/** Work left running: a foreground program, a job that ignores SIGHUP, a nohup'd one. */
async function work(server: TestServer): Promise<Leftovers> {
  const left = startLeftovers();
  await server.call("create_pane", { name: "fg", command: left.foreground });
  const ran = await server.call<{ output: string }>("execute_command", { command: `${left.background}; echo started` });
  assert.match(ran.output, /started$/);
  await until(() => left.running(), (pids) => pids.length === 3);
  return left;
}

Deno.test("a server killed with SIGKILL: within seconds its workspace and every process started there are gone", async () => {
  await using server = await TestServer.start();
  const pid = server.pid;
  const left = await work(server);
  assert.notEqual(await workspaceOf(server, pid), "");
  const killed = performance.now();
  Deno.kill(pid, "SIGKILL");
  try {
    await until(() => workspaceOf(server, pid), (line) => line === "", 10_000);
    await until(() => left.running(), (pids) => pids.length === 0, 10_000);
    const took = performance.now() - killed;
    console.log(`SIGKILL: workspace and processes gone after ${Math.round(took)} ms`);
    assert.ok(took < 6_000, `took ${Math.round(took)} ms`);
  } finally {
    left.kill();
  }
});

Deno.test("a server that ends cleanly stops the processes that ignore the hang-up too", async () => {
  const server = await TestServer.start();
  const left = await work(server);
  try {
    await server.close(false); // stdin closed: the server's own end, the tmux server stays
    await until(() => left.running(), (pids) => pids.length === 0, 10_000);
    assert.equal(await workspaceOf(server, server.pid), "");
  } finally {
    left.kill();
    await server.close();
  }
});

Deno.test("with --keep a killed server's workspace and processes stay, and the workspace says it is kept", async () => {
  await using server = await TestServer.start({ args: ["--keep"] });
  const pid = server.pid;
  const left = await work(server);
  try {
    assert.equal(await workspaceOf(server, pid), `tmuxwright-${pid} 1`, "kept from the start");
    Deno.kill(pid, "SIGKILL");
    // The link script's look at the dead process and its end take well under 4 s.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal(await workspaceOf(server, pid), `tmuxwright-${pid} 1`);
    assert.equal((await left.running()).length, 3);
  } finally {
    left.kill();
  }
});
