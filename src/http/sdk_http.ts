// Server-side SDK modules for MCP over HTTP (the SDK v2 line, as src/mcp/sdk.ts).
export {
  createMcpHandler,
  InMemoryServerEventBus,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
export type { JSONRPCMessage, McpHttpHandler, McpServer, ServerNotifier } from "@modelcontextprotocol/server";
