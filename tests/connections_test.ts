import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "./helpers/sdk_client.ts";
import { cleanEnv, tmuxAt, until } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";
import { createApp } from "../src/app.ts";
import { createServer } from "../src/mcp/server.ts";
import { loadConfig } from "../src/config.ts";

/** One App (one tmux connection, one event stream) serving several MCP connections, as HTTP does. */
async function sharedApp(args: string[] = []) {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const socket = `${dir}/s`;
  const config = loadConfig([
    "--socket-path",
    socket,
    "--state-dir",
    `${dir}/state`,
    "--tmux-config",
    "/dev/null",
    ...args,
  ]);
  const app = await createApp(config);
  const connect = async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createServer(app).connect(serverSide);
    const client = new Client({ name: "c", version: "0" });
    await client.connect(clientSide);
    const updates: string[] = [];
    const logs: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    return { client, updates, logs };
  };
  return {
    app,
    socket,
    connect,
    async [Symbol.asyncDispose]() {
      await app.close().catch(() => {});
      await tmuxAt(socket, "kill-server");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

async function tapClients(socket: string, session: string): Promise<number> {
  const { stdout } = await tmuxAt(socket, "list-clients", "-F", "#{client_control_mode} #{session_name}");
  return stdout.split("\n").filter((line) => line === `1 ${session}`).length;
}

Deno.test("connections over one App: subscriptions are per connection and released when it closes", async () => {
  await using shared = await sharedApp();
  const baseline = shared.app.events.listenerCount;
  const a = await shared.connect();
  const b = await shared.connect();
  assert.ok(shared.app.events.listenerCount > baseline);
  await a.client.listTools(); // opens the tmux connection
  const created = await new Deno.Command("tmux", {
    args: ["-S", shared.socket, "new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", PLAIN_BASH],
    env: cleanEnv(),
    stdout: "piped",
  }).output();
  const pane = new TextDecoder().decode(created.stdout).trim();
  const uri = `tmux://panes/${encodeURIComponent(pane)}/content`;

  await a.client.subscribeResource({ uri });
  await b.client.subscribeResource({ uri });
  assert.equal(await tapClients(shared.socket, "user"), 1, "one output tap for the session, shared");
  await tmuxAt(shared.socket, "send-keys", "-t", pane, "echo both", "Enter");
  await until(() => [a.updates.length, b.updates.length], ([x, y]) => x > 0 && y > 0);

  await a.client.close();
  assert.equal(await tapClients(shared.socket, "user"), 1, "b still listens");
  const before = b.updates.length;
  await tmuxAt(shared.socket, "send-keys", "-t", pane, "echo only-b", "Enter");
  await until(() => b.updates.length, (n) => n > before);

  await b.client.close();
  await until(() => tapClients(shared.socket, "user"), (n) => n === 0);
  assert.equal(shared.app.events.listenerCount, baseline, "closed connections left the event stream");
});

Deno.test("connections over one App: a refused call is logged to the connection that made it only", async () => {
  await using shared = await sharedApp(["--safety", "readonly"]);
  const a = await shared.connect();
  const b = await shared.connect();
  const denied = await a.client.callTool({ name: "create_pane", arguments: {} });
  assert.equal(denied.isError, true);
  await until(() => a.logs.length, (n) => n > 0);
  assert.match(a.logs[0], /^refused create_pane: TIER_DENIED/);
  await b.client.ping();
  assert.deepEqual(b.logs, []);
  await a.client.close();
  await b.client.close();
});
