// The SDK's exports map points `*.js` subpaths at `*.js.d.ts` files that do not exist, so under
// `deno check` every symbol would silently be `any`. Each `@ts-types` line points at the real types.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
