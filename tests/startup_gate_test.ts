import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { CallToolResultSchema, type Client } from "./helpers/sdk_client.ts";

// An owned pane's program waits behind a start-up gate until the server has set up its log. The
// gate must not be reachable by anyone else's signal, and must never wait for good.

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
  const first = result.content[0];
  return { isError: result.isError === true, text: first?.type === "text" ? first.text : "" };
}

/** The gate channel a pane was started with (the `sh -c GATE NAME CHANNEL …` argument after the name). */
async function gateChannelOf(tmux: (...args: string[]) => Promise<{ stdout: string }>, paneId: string) {
  const start = (await tmux("display-message", "-p", "-t", paneId, "#{pane_start_command}")).stdout;
  return /tmuxwright-gate (\S+)/.exec(start)?.[1] ?? start;
}

Deno.test("start-up gate: signals forged on other workspaces' channel names never hold a pane", async () => {
  await using server = await TestServer.start();
  await server.call("list_panes"); // connects: the tmux server and workspace exist
  // Another server (or HTTP session) counting gates the same way signals these channels first: a
  // signal with no waiter is kept once, and the next one on the channel drops it.
  for (let n = 1; n <= 4; n++) await server.tmux("wait-for", "-S", `tmuxwright-gate-${server.pid}-${n}`);
  const created = await server.call<{ pane_id: string }>("create_pane", { name: "g", command: "bash --norc" });
  const ran = await server.call<{ output: string; exit_code: number; timed_out: boolean }>("execute_command", {
    pane_id: created.pane_id,
    command: "echo gate-open",
    timeout: 8,
  });
  assert.equal(ran.timed_out, false, "the pane's program started");
  assert.equal(ran.output, "gate-open");
  const started = await server.tmux("display-message", "-p", "-t", created.pane_id, "#{@tmuxwright_started}");
  assert.equal(started.stdout.trim(), "1", "the gate marked its pane when it let the program go");
});

Deno.test("start-up gate: two HTTP sessions' panes never share a gate channel", async () => {
  await using server = await HttpMcpServer.start();
  const a = await server.client();
  const b = await server.client();
  const [pa, pb] = await Promise.all([
    call(a.client, "create_pane", { name: "p", command: "sleep 30" }),
    call(b.client, "create_pane", { name: "p", command: "sleep 30" }),
  ]);
  assert.ok(!pa.isError && !pb.isError, `${pa.text} ${pb.text}`);
  const tmux = (...args: string[]) => server.tmux(...args);
  const ca = await gateChannelOf(tmux, JSON.parse(pa.text).pane_id);
  const cb = await gateChannelOf(tmux, JSON.parse(pb.text).pane_id);
  assert.notEqual(ca, cb);
  assert.match(ca, /^tmuxwright-gate-.*-[0-9a-f]{16}$/, "the channel carries random bits no one can guess");
  await a.client.close();
  await b.client.close();
});

Deno.test("start-up gate: a gate that never lets go fails the create with PANE_NOT_STARTED and removes the pane", async () => {
  await using server = await TestServer.start();
  // TMUX names the server the gate's tmux client talks to: here another tmux server, stopped
  // (SIGSTOP), which accepts the connection and never answers, so the gate's client waits for good.
  const path = `${server.dir}/hung`;
  await server.tmux("-S", path, "new-session", "-d", "sleep 60"); // tmuxAt's -S comes first; the last one wins
  const pid = Number((await server.tmux("-S", path, "display-message", "-p", "#{pid}")).stdout.trim());
  assert.ok(pid > 0);
  Deno.kill(pid, "SIGSTOP");
  try {
    const before = performance.now();
    const text = await server.callError("create_pane", {
      name: "stuck",
      command: "sleep 30",
      env: { TMUX: `${path},1,0` },
    });
    const took = performance.now() - before;
    assert.match(text, /PANE_NOT_STARTED/);
    assert.ok(took < 30_000, `failed in ${Math.round(took)} ms, within the gate's deadline`);
    const panes = await until(
      () => server.tmux("list-panes", "-a", "-F", "#{pane_start_command}"),
      (out) => !out.stdout.includes("sleep 30"),
    );
    assert.ok(!panes.stdout.includes("sleep 30"), "the stuck pane was killed");
    // The next pane starts normally.
    const ran = await server.call<{ output: string }>("execute_command", { command: "echo fine", timeout: 8 });
    assert.equal(ran.output, "fine");
  } finally {
    Deno.kill(pid, "SIGCONT");
    await server.tmux("-S", path, "kill-server");
  }
});
