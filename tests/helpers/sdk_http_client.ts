// Client-side SDK for MCP over HTTP (tests only: client modules read the environment at load time).
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
