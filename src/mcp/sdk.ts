// The SDK's exports map points `*.js` subpaths at `*.js.d.ts` files that do not exist, so under
// `deno check` every symbol would silently be `any`. Each `@ts-types` line points at the real types.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type Prompt,
  type PromptMessage,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate as ResourceTemplateEntry,
  type ServerNotification,
  type ServerRequest,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/validation/ajv"
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/validation"
export type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
