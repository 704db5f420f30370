import { PatternCompiler } from "../patterns/mod.ts";
import type { BridgeBackend } from "./bridge/backend.ts";
import type { McpServer } from "./sdk_http.ts";
import type { ModernMcpOptions } from "./mcp_modern.ts";
import type { WatchBackend } from "./watch/backend.ts";
import { isLoopbackName, normalizeOrigin } from "./net.ts";

export const DEFAULT_ALLOWED_ORIGINS = ["https://localhost:3141"] as const;

export interface HttpLimits {
  /** Bridge request bodies (`POST /v1/tmux`), the contract's 256 KiB. */
  bridgeBodyBytes: number;
  /** MCP request bodies (`POST /mcp`): a JSON-RPC message or batch; tool inputs are far smaller. */
  mcpBodyBytes: number;
  /** All request header names and values together. */
  headerBytes: number;
  /** Longest pause between two chunks of a request body, and longest time for all of it. */
  bodyIdleMs: number;
  bodyTotalMs: number;
  /** Requests being handled at once, beyond which the answer is 503. */
  maxConcurrent: number;
  maxMcpSessions: number;
  mcpIdleTimeoutMs: number;
  /** TCP connections open at once (each ~10 KiB even when silent); one more gets 503. */
  maxConnections: number;
  /** Time for a connection's first request headers to arrive whole; then 408 and it is closed. */
  headerTimeoutMs: number;
  /** A kept-alive connection with no request in flight and no bytes either way for this long is closed. */
  idleTimeoutMs: number;
}

export const DEFAULT_LIMITS: Readonly<HttpLimits> = Object.freeze({
  bridgeBodyBytes: 256 * 1024,
  mcpBodyBytes: 4 * 1024 * 1024,
  headerBytes: 16 * 1024,
  bodyIdleMs: 10_000,
  bodyTotalMs: 30_000,
  maxConcurrent: 256,
  maxMcpSessions: 100,
  mcpIdleTimeoutMs: 30 * 60_000,
  maxConnections: 1024,
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
});

export interface HttpServeOptions {
  hostname: string;
  /** 0 picks a free port; the handle says which. */
  port: number;
  /** PEM files; HTTPS when given. */
  tls?: { certFile: string; keyFile: string } | null;
  /** Bearer token required on /v1/tmux and /mcp when set. */
  token?: string | null;
  allowedOrigins?: readonly string[];
  /** Accept non-loopback peers and any Host (then a token is required). */
  allowRemote?: boolean;
  /** Serves /health and /v1/tmux when given. */
  bridge?: BridgeBackend | null;
  /** Serves the read-only /watch page (every pane, live) when given. */
  watch?: WatchBackend | null;
  /** Serves /mcp when given: a fresh McpServer per MCP session over one shared engine. */
  createMcpServer?: (() => McpServer) | null;
  /** With createMcpServer: also serves MCP 2026-07-28 (stateless) at /mcp. */
  modernMcp?: Omit<ModernMcpOptions, "log"> | null;
  /** What else counts against maxMcpSessions (the 2026 era's workspaces). */
  mcpHeld?: () => number;
  limits?: Partial<HttpLimits>;
  /** What is at a bridge `cwd` (default: Deno.stat, which needs read access to it). */
  checkDirectory?: (path: string) => Promise<"directory" | "other" | "missing">;
  /** Access-log hook: sees every request (method, URL, headers) before any check; must not read the body. */
  onRequest?: (request: Request) => void;
  /** Diagnostics (default stderr; stdout may carry a banner others parse). */
  log?: (line: string) => void;
  /** Compiles the bridge's `wait_for` in linear time (default: a compiler of this server's own). */
  patterns?: PatternCompiler;
}

/** An operator mistake in the listener's settings, reported at start-up. */
export class HttpConfigError extends Error {}

export interface ResolvedOptions {
  token: string | null;
  allowedOrigins: ReadonlySet<string>;
  allowRemote: boolean;
  limits: HttpLimits;
  log: (line: string) => void;
  checkDirectory?: (path: string) => Promise<"directory" | "other" | "missing">;
  patterns: PatternCompiler;
  watch: WatchBackend | null;
}

export function resolveOptions(options: HttpServeOptions): ResolvedOptions {
  const token = options.token ? options.token : null;
  const allowRemote = options.allowRemote === true;
  if (allowRemote && token === null) {
    throw new HttpConfigError("Cannot allow remote clients without a token: set TMUX_BRIDGE_TOKEN");
  }
  if (!allowRemote && !isLoopbackName(options.hostname)) {
    throw new HttpConfigError(
      `Cannot listen on "${options.hostname}": only loopback addresses (127.0.0.1, ::1, localhost) ` +
        "unless remote clients are allowed with --allow-remote and a TMUX_BRIDGE_TOKEN",
    );
  }
  const origins = new Set<string>();
  for (const origin of options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS) {
    const normal = normalizeOrigin(origin);
    if (normal === null) {
      throw new HttpConfigError(
        `Invalid allowed origin "${origin}": expected scheme://host[:port], e.g. https://localhost:3141`,
      );
    }
    origins.add(normal);
  }
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new HttpConfigError(`Invalid limit ${name} "${value}": a positive integer`);
    }
  }
  return {
    token,
    allowedOrigins: origins,
    allowRemote,
    limits,
    log: options.log ?? ((line) => console.error(line)),
    checkDirectory: options.checkDirectory,
    patterns: options.patterns ?? new PatternCompiler(),
    watch: options.watch ?? null,
  };
}
