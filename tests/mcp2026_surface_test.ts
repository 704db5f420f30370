/**
 * The MCP surface besides tools in the 2026-07-28 era: server/discover, `subscriptions/listen`
 * (pane output and the pane set), progress and cancellation, over stdio and HTTP.
 */
import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import { ModernClient } from "./helpers/modern_client.ts";
import { INSTRUCTIONS, WORKSPACE_INSTRUCTIONS } from "../src/mcp/server.ts";

type Transport = "stdio" | "http";
const TRANSPORTS: Transport[] = ["stdio", "http"];

async function open(transport: Transport, body: (c: ModernClient) => Promise<void> | void): Promise<void> {
  if (transport === "stdio") {
    await using c = await ModernClient.stdio({ mode: "pin" });
    return await body(c);
  }
  await using server = await HttpMcpServer.start();
  await using c = await ModernClient.http(server.mcpUrl, { mode: "pin" });
  await body(c);
}

for (const transport of TRANSPORTS) {
  Deno.test(`MCP 2026 over ${transport}: server/discover names the server, its instructions, capabilities and extensions`, async () => {
    await open(transport, (c) => {
      const discover = c.client.getDiscoverResult()!;
      assert.ok(discover.supportedVersions.includes("2026-07-28"), JSON.stringify(discover));
      assert.equal(c.client.getServerVersion()?.name, "tmuxwright");
      assert.equal(
        discover.instructions,
        transport === "http" ? `${INSTRUCTIONS}\n${WORKSPACE_INSTRUCTIONS}` : INSTRUCTIONS,
      );
      const caps = discover.capabilities;
      assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
      assert.ok(caps.tools && caps.prompts && caps.completions);
      assert.deepEqual(Object.keys(caps.extensions ?? {}).sort(), [
        "io.modelcontextprotocol/tasks",
        "io.modelcontextprotocol/ui",
      ]);
      assert.equal(caps.logging, undefined, "logging is a 2025-era capability here");
    });
  });

  Deno.test(`MCP 2026 over ${transport}: subscriptions/listen gets a pane's output updates and pane set changes`, async () => {
    await open(transport, async (c) => {
      const pane = (await c.call("create_pane", { name: "watched" })).pane_id as string;
      const uri = `tmux://panes/${encodeURIComponent(pane)}/content`;
      const updated: string[] = [];
      let listChanged = 0;
      c.client.setNotificationHandler("notifications/resources/updated", (n) => void updated.push(n.params.uri));
      c.client.setNotificationHandler("notifications/resources/list_changed", () => void listChanged++);
      const subscription = await c.client.listen({ resourceSubscriptions: [uri], resourcesListChanged: true });
      assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [uri]);
      await c.call("send_keys", { pane_id: pane, text: "echo listened" });
      await until(() => updated.length, (n) => n > 0, 5_000);
      assert.ok(updated.every((u) => u === uri));
      await c.call("create_pane", { name: "another" });
      await until(() => listChanged, (n) => n > 0, 5_000);

      // Closed: the server stops following the pane; more output brings no update.
      await subscription.close();
      const before = updated.length;
      await c.call("execute_command", { pane_id: pane, command: "echo unheard" });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(updated.length, before);
    });
  });

  Deno.test(`MCP 2026 over ${transport}: progress while a command runs; cancelling it sends Ctrl-C`, async () => {
    await open(transport, async (c) => {
      const progress: number[] = [];
      const slow = await c.client.callTool({
        name: "execute_command",
        arguments: withHandle(c, { command: "sleep 2.2; echo done" }),
      }, {
        onprogress: (p) => void progress.push(p.progress),
        timeout: 30_000,
      });
      assert.equal((slow.structuredContent as { output: string }).output, "done");
      assert.ok(progress.length >= 1, `progress: ${progress}`);

      const pane = (await c.call("create_pane", { name: "cancelled" })).pane_id as string;
      const abort = new AbortController();
      const call = c.client.callTool(
        { name: "execute_command", arguments: withHandle(c, { pane_id: pane, command: "sleep 600; echo never" }) },
        { signal: abort.signal },
      );
      await until(() => c.call("pane_state", { pane_id: pane }), (s) => s.foreground_command === "sleep", 10_000);
      abort.abort();
      await assert.rejects(call);
      const back = await until(
        () => c.result("execute_command", { pane_id: pane, command: "echo shell-back", timeout_ms: 3000 }),
        (r) => !r.isError,
        15_000,
      );
      assert.equal((back.structuredContent as { output: string }).output, "shell-back");
    });
  });
}

/** A 2026 HTTP caller's handle, for calls made on the client directly. */
function withHandle(c: ModernClient, args: Record<string, unknown>): Record<string, unknown> {
  return c.workspace ? { workspace: c.workspace, ...args } : args;
}

Deno.test("MCP 2026 over stdio: the channel pushes a watch_pane trigger; the MCP App's view is declared and served", async () => {
  await using c = await ModernClient.stdio({ mode: "pin", args: ["--channel"] });
  assert.deepEqual(c.client.getServerCapabilities()?.experimental, { "claude/channel": {} });
  const pushes: { content: string; meta: Record<string, string> }[] = [];
  c.client.fallbackNotificationHandler = (notification) => {
    if (notification.method === "notifications/claude/channel") pushes.push(notification.params as never);
    return Promise.resolve();
  };
  const pane = (await c.call("create_pane", { name: "svc" })).pane_id as string;
  await c.call("send_keys", { pane_id: pane, text: "sleep 0.3; echo READY-$((40+2))" });
  const watched = await c.call("watch_pane", { pane_id: pane, triggers: ["pattern:READY-\\d+"], timeout_ms: 10_000 });
  assert.equal(watched.trigger, "pattern:READY-\\d+");
  await until(() => pushes.length, (n) => n >= 1, 5_000);
  assert.equal(pushes[0].meta.detail, "READY-42");

  const tool = (await c.client.listTools()).tools.find((t) => t.name === "execute_command");
  assert.equal((tool?._meta?.ui as { resourceUri?: string })?.resourceUri, "ui://tmuxwright/pane-view.html");
  const view = await c.client.readResource({ uri: "ui://tmuxwright/pane-view.html" });
  assert.equal(view.contents[0].mimeType, "text/html;profile=mcp-app");
  assert.match((view.contents[0] as { text: string }).text, /McpExtApps/);
});
