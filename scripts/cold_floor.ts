/**
 * The floor of a cold start (scripts/bench_core.ts): load the MCP SDK's server module and zod, as
 * the server must, then answer initialize and tools/list with canned replies, reading nothing else.
 * What the server spends above this is its own start-up.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";

const loaded = typeof McpServer === "function" && typeof z.object === "function";
const encoder = new TextEncoder();
let buffered = "";
for await (const chunk of Deno.stdin.readable) {
  buffered += new TextDecoder().decode(chunk);
  for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
    const message = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    if (message.id === undefined) continue;
    const result = message.method === "initialize"
      ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "0" } }
      : { tools: [], loaded };
    await Deno.stdout.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\n"));
  }
}
