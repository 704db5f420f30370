// The one door to the MCP SDK (v2, `@modelcontextprotocol/server`) on the server side. Client-side modules read the
// environment at load time and stay out of the server's graph (tests/architecture_test.ts).
export {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isLegacyRequest,
  McpServer,
  MissingRequiredClientCapabilityError,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
export type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  JSONRPCMessage,
  McpHttpHandler,
  McpRequestContext,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  RequestStateCodec,
  Resource,
  ResourceTemplateType as ResourceTemplateEntry,
  ServerContext,
  ServerEventBus,
  Tool,
  Transport,
} from "@modelcontextprotocol/server";
export { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
export type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/server";
export { serveStdio } from "@modelcontextprotocol/server/stdio";
