// Server-side SDK modules for MCP over HTTP. As in src/mcp/sdk.ts, each `@ts-types` line points
// at the real types: the SDK's exports map would otherwise make every symbol `any` under deno check.
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
