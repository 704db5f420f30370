import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer, tmuxAt, until } from "./helpers/harness.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const encoder = new TextEncoder();

Deno.test("a request over the message size limit gets a JSON-RPC error; the server keeps serving", async () => {
  await using server = await TestServer.start();
  await server.call("create_pane", { name: "keep" });
  const huge = "x".repeat(20 * 1024 * 1024);
  const started = performance.now();
  await assert.rejects(
    server.client.callTool({ name: "send_keys", arguments: { pane_id: "keep", text: huge } }, undefined, {
      timeout: 20_000,
    }),
    (error: Error) => {
      assert.match(error.message, /too large: 2097\d{4} bytes; the limit is 8388608 bytes/);
      return true;
    },
  );
  assert.ok(performance.now() - started < 15_000);
  // Later requests are answered, and the workspace is still there.
  const { panes } = await server.call<{ panes: { name: string }[] }>("list_panes");
  assert.ok(panes.some((p) => p.name === "keep"));
  assert.match(server.stderr.join(""), /refused a message of 2097\d{4} bytes: over the 8 MiB limit/);
  assert.doesNotMatch(server.stderr.join(""), /Uncaught|\n\s+at /);
});

/** A server driven with raw JSON-RPC lines: malformed input and a reader that goes away. */
async function rawServer(dir: string) {
  const child = new Deno.Command("deno", {
    args: [
      "run",
      ...startPermissions(cleanEnv(), [dir]),
      MAIN,
      "--socket-path",
      `${dir}/s`,
      "--state-dir",
      `${dir}/state`,
    ],
    env: cleanEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const send = (message: unknown) => writer.write(encoder.encode(JSON.stringify(message) + "\n"));
  /** The next line the server writes; a missing answer fails within 15 s instead of hanging. */
  const next = async (): Promise<Record<string, unknown>> => {
    while (!buffered.includes("\n")) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no answer within 15 s")), 15_000);
      });
      const { value, done } = await Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
      if (done) throw new Error("server closed stdout");
      buffered += value;
    }
    const line = buffered.slice(0, buffered.indexOf("\n"));
    buffered = buffered.slice(line.length + 1);
    return JSON.parse(line);
  };
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  await next();
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { child, writer, reader, send, next, writeRaw: (text: string) => writer.write(encoder.encode(text)) };
}

Deno.test("malformed lines get JSON-RPC parse and invalid-request errors; the server keeps serving", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const server = await rawServer(dir);
  try {
    await server.writeRaw("{not json\n");
    assert.deepEqual((await server.next()).error, { code: -32700, message: "Parse error: the line is not JSON" });
    await server.send({ jsonrpc: "2.0", id: 7, method: 42 });
    const invalid = await server.next();
    assert.equal(invalid.id, 7);
    assert.equal((invalid.error as { code: number }).code, -32600);
    await server.send({ jsonrpc: "2.0", id: 8, method: "tools/list" });
    const listed = await server.next();
    assert.equal(listed.id, 8);
    assert.ok(Array.isArray((listed.result as { tools: unknown[] }).tools));
  } finally {
    await server.writer.close().catch(() => {});
    await server.reader.cancel().catch(() => {});
    await server.child.stderr.cancel().catch(() => {});
    await server.child.status;
    await tmuxAt(`${dir}/s`, "kill-server").catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a client that closes the server's stdout: clean-up, quiet exit, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const server = await rawServer(dir);
  try {
    await server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "create_pane", arguments: { name: "work" } },
    });
    await server.next();
    const sessions = async () => (await tmuxAt(`${dir}/s`, "list-sessions", "-F", "#{session_name}")).stdout;
    assert.match(await sessions(), /tmuxwright-\d+/);
    await server.reader.cancel(); // the client stops reading: the server's next write fails with EPIPE
    await server.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    const status = await server.child.status;
    const stderr = new TextDecoder().decode(await new Response(server.child.stderr).arrayBuffer());
    assert.equal(status.code, 0, stderr);
    assert.doesNotMatch(stderr, /Uncaught|Error|\n\s+at /);
    await until(sessions, (names) => !/tmuxwright-\d+/.test(names));
  } finally {
    await server.writer.close().catch(() => {});
    await tmuxAt(`${dir}/s`, "kill-server").catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
