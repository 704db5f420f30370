import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import type { Client } from "./helpers/sdk_client.ts";

// Slow and broken clients on one HTTP server: none of them may hold a connection, a slot or memory
// for good, nor stop other sessions' calls.

const encoder = new TextEncoder();
const port = (server: HttpMcpServer) => Number(new URL(server.url).port);

async function readAll(conn: Deno.Conn, limitMs: number): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const chunks: string[] = [];
  const buffer = new Uint8Array(4096);
  const deadline = setTimeout(() => conn.close(), limitMs);
  try {
    for (let n; (n = await conn.read(buffer)) !== null;) chunks.push(new TextDecoder().decode(buffer.subarray(0, n)));
  } catch { /* closed by the deadline */ }
  clearTimeout(deadline);
  return { text: chunks.join(""), ms: performance.now() - started };
}

async function exec(client: Client, command: string, extra: Record<string, unknown> = {}) {
  const result = await client.callTool({ name: "execute_command", arguments: { command, ...extra } });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, text);
  return JSON.parse(text) as { output: string; exit_code: number; pane_id: string };
}

Deno.test("slow clients: headers that never finish get 408 at the deadline and the connection is closed", async () => {
  await using server = await HttpMcpServer.start({ limits: { headerTimeoutMs: 500 } });
  const silent = await Deno.connect({ hostname: "127.0.0.1", port: port(server) });
  const dribbling = await Deno.connect({ hostname: "127.0.0.1", port: port(server) });
  await dribbling.write(encoder.encode("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  const [a, b] = await Promise.all([readAll(silent, 5000), readAll(dribbling, 5000)]);
  for (const got of [a, b]) {
    assert.match(got.text, /^HTTP\/1\.1 408 /);
    assert.ok(got.ms >= 400 && got.ms < 3000, `closed after ${got.ms} ms`);
  }
  // Meanwhile and after, a whole request is answered as always.
  const { client } = await server.client();
  assert.equal((await exec(client, "echo fine")).output, "fine");
  await client.close();
});

Deno.test("slow clients: past the connection cap one more gets 503 with Retry-After; slots free as connections close", async () => {
  await using server = await HttpMcpServer.start({ limits: { maxConnections: 20 } });
  const held: Deno.Conn[] = [];
  for (let i = 0; i < 20; i++) held.push(await Deno.connect({ hostname: "127.0.0.1", port: port(server) }));
  await until(async () => {
    const extra = await Deno.connect({ hostname: "127.0.0.1", port: port(server) });
    return (await readAll(extra, 2000)).text;
  }, (text) => /^HTTP\/1\.1 503 /.test(text) && /Retry-After: 1/i.test(text));
  for (const conn of held.splice(0, 5)) conn.close();
  const health = await until(() => fetch(`${server.url}/health`).catch(() => null), (r) => r?.status === 200);
  await health!.body?.cancel();
  held.forEach((conn) => conn.close());
});

Deno.test("slow clients: 1,000 silent connections, an unread SSE stream and slow bodies do not stop other sessions", async () => {
  await using server = await HttpMcpServer.start();
  // Through ps: the test permissions cannot read another process's /proc entry.
  const rss = async () => {
    const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(server.pid)] }).output();
    return Number(new TextDecoder().decode(out.stdout).trim());
  };
  const a = await server.client();
  const b = await server.client();
  await exec(b.client, "true");
  const before = await rss();
  const silent: Deno.Conn[] = [];
  for (let i = 0; i < 1000; i++) silent.push(await Deno.connect({ hostname: "127.0.0.1", port: port(server) }));
  // A third session whose standalone SSE stream is opened and never read.
  const init = await server.initializeRaw("unread");
  const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
  await init.body?.cancel();
  const sse = await fetch(server.mcpUrl, { headers: { accept: "text/event-stream", ...session } });
  assert.equal(sse.status, 200);
  // A body that arrives a byte at a time.
  const slowBody = await Deno.connect({ hostname: "127.0.0.1", port: port(server) });
  await slowBody.write(encoder.encode(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${
      port(server)
    }\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
  ));
  // Both sessions' calls go on, exact.
  assert.equal((await exec(a.client, "echo from-a")).output, "from-a");
  assert.equal((await exec(b.client, "echo from-b")).output, "from-b");
  const grown = (await rss()) - before;
  assert.ok(grown < 64 * 1024, `RSS grew ${grown} KiB with 1,000 silent connections`);
  silent.forEach((conn) => conn.close());
  slowBody.close();
  await sse.body?.cancel();
  await a.client.close();
  await b.client.close();
});

Deno.test("broken clients: a client that drops mid-call leaves the command to finish and the pane usable", async () => {
  await using server = await HttpMcpServer.start();
  const { client, transport } = await server.client();
  const first = await exec(client, "echo ready");
  const marker = `${server.dir}/finished`;
  const dropped = new AbortController();
  const call = fetch(server.mcpUrl, {
    method: "POST",
    signal: dropped.signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": transport.sessionId!,
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 99,
      method: "tools/call",
      params: { name: "execute_command", arguments: { command: `sleep 1; echo done > ${marker}` } },
    }),
  }).catch(() => null);
  await until(
    () => server.tmux("display-message", "-p", "-t", first.pane_id, "#{pane_current_command}"),
    (r) => r.stdout.trim() === "sleep",
  );
  dropped.abort(); // the client goes away; per the spec this is not a cancellation
  await call;
  const finished = await until(() => Deno.readTextFile(marker).catch(() => ""), (text) => text === "done\n");
  assert.equal(finished, "done\n");
  const after = await exec(client, "echo after");
  assert.equal(after.output, "after");
  assert.equal(after.pane_id, first.pane_id);
  await client.close();
});

Deno.test("session limit: 503 with Retry-After, and DELETE /mcp frees the slot at once", async () => {
  await using server = await HttpMcpServer.start({ limits: { maxMcpSessions: 2 } });
  const a = await server.client();
  const b = await server.client();
  const refused = await server.initializeRaw();
  assert.equal(refused.status, 503);
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
  await refused.body?.cancel();
  await a.transport.terminateSession();
  const c = await server.client();
  assert.equal((await exec(c.client, "echo third")).output, "third");
  for (const { client } of [a, b, c]) await client.close();
});

Deno.test("slow clients: a kept-alive connection idle after its request is closed; streams and long calls are not", async () => {
  await using server = await HttpMcpServer.start({ limits: { idleTimeoutMs: 600 } });
  // A keep-alive connection that asks once and then says nothing.
  const idle = await Deno.connect({ hostname: "127.0.0.1", port: port(server) });
  await idle.write(encoder.encode(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port(server)}\r\n\r\n`));
  const got = await readAll(idle, 10_000);
  assert.match(got.text, /^HTTP\/1\.1 200 /);
  assert.ok(got.ms >= 500 && got.ms < 5000, `the idle connection was closed after ${got.ms} ms`);

  // A session's standalone event stream, silent for five idle deadlines, stays open.
  const init = await server.initializeRaw("listener");
  const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
  await init.body?.cancel();
  const sse = await fetch(server.mcpUrl, { headers: { accept: "text/event-stream", ...session } });
  assert.equal(sse.status, 200);
  const reader = sse.body!.getReader();
  const read = reader.read().then((next) => (next.done ? "closed" : "data"));
  const quiet = new Promise((resolve) => setTimeout(() => resolve("open"), 3000));
  assert.equal(await Promise.race([read, quiet]), "open", "the silent event stream was cut");
  await reader.cancel();

  // A call that takes three idle deadlines with nothing sent meanwhile is answered.
  const { client } = await server.client();
  assert.equal((await exec(client, "sleep 2; echo slow-done")).output, "slow-done");
  await client.close();
});
