// The HTTP transport: MCP Streamable HTTP at /mcp and the tmux bridge v1 at /health and /v1/tmux.
export { type HttpServerHandle, serveHttp } from "./serve_http.ts";
export {
  DEFAULT_ALLOWED_ORIGINS,
  DEFAULT_LIMITS,
  HttpConfigError,
  type HttpLimits,
  type HttpServeOptions,
  resolveOptions,
} from "./options.ts";
export { type BridgeBackend, BridgeError, type HealthInfo } from "./bridge/backend.ts";
export { StubBackend } from "./bridge/stub.ts";
export { TmuxBackend, type TmuxBackendDeps } from "./bridge/tmux_backend.ts";
