import assert from "node:assert/strict";
import * as z from "zod";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, Client } from "./helpers/sdk_client.ts";
import { McpServer } from "../src/mcp/sdk.ts";
import { registerTools } from "../src/mcp/register.ts";
import { defineTool, READ_ONLY, type ToolDefinition } from "../src/mcp/define.ts";
import type { App } from "../src/app.ts";
import { HostRegistry } from "../src/engine/hosts/mod.ts";
import { PolicyGate } from "../src/engine/policy/mod.ts";
import { loadConfig } from "../src/config.ts";

function tool(name: string, tier: unknown): ToolDefinition {
  return defineTool({
    name,
    title: name,
    description: `test tool ${name}`,
    profile: "core",
    group: "panes",
    tier: tier as "readonly",
    annotations: READ_ONLY,
    input: { x: z.string().optional() },
    handler: () => Promise.resolve({ ran: name }),
  });
}

/** A real McpServer with registerTools, linked to a real client in memory; the app is never used by these tools beyond routing. */
async function connect(safety: string, tools: ToolDefinition[]) {
  const config = loadConfig(["--safety", safety, "--tools", "core", "--state-dir", "/tmp/tw-unused", "doctor"]);
  // Calls are routed by host first: a registry with no remote host, as a server without --host has.
  const hosts = new HostRegistry(null, { hosts: [], sshConfig: null, hubSession: "tmuxwright-link-test" });
  const gate = new PolicyGate(null); // no --policy
  const app = { config, hosts, gate, audit: { record: () => Promise.resolve() } } as unknown as App;
  const server = new McpServer({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  registerTools(server, app, tools);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "c", version: "0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

Deno.test("registerTools never registers a tool without a valid tier", async () => {
  const { client, close } = await connect("destructive", [
    tool("with_tier", "readonly"),
    tool("no_tier", undefined),
    tool("bad_tier", "superuser"),
  ]);
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["with_tier"]);
    for (const name of ["no_tier", "bad_tier"]) {
      const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: {} }));
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /not found/);
    }
  } finally {
    await close();
  }
});

Deno.test("registerTools hides tools above the tier and answers their calls with TIER_DENIED", async () => {
  const { client, close } = await connect("readonly", [tool("reader", "readonly"), tool("killer", "destructive")]);
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["reader"]);
    const denied = CallToolResultSchema.parse(await client.callTool({ name: "killer", arguments: { x: "secret" } }));
    assert.equal(denied.isError, true);
    const text = denied.content[0].type === "text" ? denied.content[0].text : "";
    assert.match(text, /^TIER_DENIED: Tool "killer" needs safety tier "destructive"; this server runs at "readonly"/);
    assert.match(text, /--safety destructive/);
    const ok = CallToolResultSchema.parse(await client.callTool({ name: "reader", arguments: {} }));
    assert.deepEqual(ok.structuredContent, { ran: "reader" });
  } finally {
    await close();
  }
});

Deno.test("tools/call validates arguments with the tool's own schema and never echoes a payload", async () => {
  const strict = defineTool({
    name: "strict",
    title: "strict",
    description: "test tool strict",
    profile: "core",
    group: "panes",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { text: z.string().max(5), count: z.number().int().min(1) },
    handler: (args) => Promise.resolve({ got: args.count }),
  });
  const { client, close } = await connect("readonly", [strict]);
  try {
    const listed = (await client.listTools()).tools[0];
    assert.deepEqual(Object.keys(listed.inputSchema.properties ?? {}), ["text", "count"]);
    assert.deepEqual(listed.inputSchema.required, ["text", "count"]);
    assert.equal(listed.annotations?.readOnlyHint, true);
    const secret = "hunter2-very-secret";
    const bad = CallToolResultSchema.parse(await client.callTool({ name: "strict", arguments: { text: secret } }));
    assert.equal(bad.isError, true);
    const text = bad.content[0].type === "text" ? bad.content[0].text : "";
    assert.match(text, /^INVALID_ARGUMENT: Invalid arguments for tool strict: text: .*; count: /);
    assert.ok(!text.includes(secret), text);
    const ok = CallToolResultSchema.parse(
      await client.callTool({ name: "strict", arguments: { text: "ab", count: 3 } }),
    );
    assert.deepEqual(ok.structuredContent, { got: 3 });
    const unknown = CallToolResultSchema.parse(await client.callTool({ name: "nope", arguments: {} }));
    assert.equal(unknown.isError, true);
  } finally {
    await close();
  }
});
