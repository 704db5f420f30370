import { admit, authorized, type Peer } from "./guards.ts";
import { corsHeaders, preflight } from "./cors.ts";
import { failure, forbidden, rpcFailure, withHeaders } from "./responses.ts";
import type { ResolvedOptions } from "./options.ts";
import type { BridgeBackend } from "./bridge/backend.ts";
import { bridgeRoute, healthRoute } from "./bridge/routes.ts";
import { compileWaitFor } from "./bridge/wait_pattern.ts";
import { statPath } from "./bridge/request.ts";
import type { McpSessions } from "./mcp_sessions.ts";
import type { ModernMcp } from "./mcp_modern.ts";
import { isLegacyRequest } from "./sdk_http.ts";
import { readBody } from "./body.ts";
import type { WatchRoutes } from "./watch/routes.ts";
import { WatchAccess } from "./watch/access.ts";

type Route = "/health" | "/v1/tmux" | "/mcp";
const METHODS: Record<Route, readonly string[]> = {
  "/health": ["GET"],
  "/v1/tmux": ["POST"],
  "/mcp": ["GET", "POST", "DELETE"],
};

/** One listener's request pipeline: guards → CORS → route → method → token → handler. */
export class Router {
  #inFlight = 0;
  /** /watch's routes and its feed, loaded on the first request for the page (start-up stays light). */
  #watch: Promise<WatchRoutes> | null = null;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly bridge: BridgeBackend | null,
    /** 2025-era sessions, and the 2026 era beside them when served. */
    private readonly mcp: { sessions: McpSessions; modern: ModernMcp | null } | null,
    /** Aborted when the server stops, so long waits end and shutdown is not held up. */
    private readonly stopping: AbortSignal,
    private readonly secure = false,
  ) {}

  async handle(request: Request, peer: Peer): Promise<Response> {
    const verdict = admit(request, peer, this.options);
    if (!verdict.ok) {
      return verdict.status === 403 ? forbidden() : failure(431, "Request headers too large.");
    }
    const cors = corsHeaders(verdict.origin);
    if (this.#inFlight >= this.options.limits.maxConcurrent) {
      return failure(503, `Too many concurrent requests (max ${this.options.limits.maxConcurrent}).`, {
        ...cors,
        "retry-after": "1",
      });
    }
    this.#inFlight++;
    try {
      return withHeaders(await this.#route(request, verdict.origin), cors);
    } catch (error) {
      this.options.log(`[tmuxwright] HTTP handler failed: ${error instanceof Error ? error.stack : error}`);
      return failure(500, "Internal server error.", cors);
    } finally {
      this.#inFlight--;
    }
  }

  async #route(request: Request, origin: string | null): Promise<Response> {
    const path = new URL(request.url).pathname as Route;
    if (this.options.watch && /^\/watch(\/|$)/.test(path)) {
      const backend = this.options.watch;
      this.#watch ??= import("./watch/routes.ts").then(({ WatchRoutes }) =>
        new WatchRoutes({
          backend,
          access: new WatchAccess(this.options.token),
          stopping: this.stopping,
          secure: this.secure,
        })
      );
      return await (await this.#watch).handle(request);
    }
    const mcp = path === "/mcp";
    const served = mcp ? this.mcp !== null : path in METHODS && this.bridge !== null;
    if (!served) return failure(404, "Not found.");
    if (request.method === "OPTIONS") return preflight(request, origin);
    const allow = METHODS[path];
    if (!allow.includes(request.method)) {
      const headers = { allow: [...allow, "OPTIONS"].join(", ") };
      return mcp ? rpcFailure(405, "Method not allowed.", headers) : failure(405, "Method not allowed.", headers);
    }
    const isAuthorized = authorized(request, this.options);
    if (path === "/health") return await healthRoute(this.bridge!, isAuthorized);
    if (!isAuthorized) {
      const headers = { "www-authenticate": 'Bearer realm="tmuxwright"' };
      return mcp ? rpcFailure(401, "Unauthorized.", headers) : failure(401, "Unauthorized.", headers);
    }
    if (path === "/v1/tmux") {
      // Made only for a request that waits: Deno aborts a request's signal, once made, after every
      // successful response (a DOMException per request).
      let signal: AbortSignal | undefined;
      const cancelled = () => signal ??= AbortSignal.any([request.signal, this.stopping]);
      return await bridgeRoute(request, cancelled, {
        backend: this.bridge!,
        body: this.#bodyLimits(this.options.limits.bridgeBodyBytes),
        compilePattern: (source) => compileWaitFor(this.options.patterns, source),
        statPath: this.options.checkDirectory ?? statPath,
        log: this.options.log,
      });
    }
    return await this.#mcp(request);
  }

  async #mcp(request: Request): Promise<Response> {
    const { sessions, modern } = this.mcp!;
    // GET and DELETE are 2025 session operations (the 2026 era has neither).
    if (request.method !== "POST") return await sessions.handle(request, undefined);
    const limits = this.#bodyLimits(this.options.limits.mcpBodyBytes);
    const body = await readBody(request, limits);
    if (!body.ok) {
      if (body.reason === "too_large") {
        return rpcFailure(413, `Payload Too Large: Request body must not exceed ${limits.maxBytes} bytes`);
      }
      if (body.reason === "timeout") return rpcFailure(408, "Request body timed out.");
      return rpcFailure(400, "Parse error: the request body is not UTF-8 JSON", {}, -32700);
    }
    if (modern === null) return await sessions.handle(request, body.text);
    // The SDK's own classifier: no `_meta` envelope (initialize, a session's requests, a body that is not JSON) is 2025.
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return await sessions.handle(request, body.text);
    }
    if (await isLegacyRequest(request, parsed)) return await sessions.handle(request, body.text);
    return await modern.handle(request, body.text, parsed);
  }

  #bodyLimits(maxBytes: number) {
    return { maxBytes, idleMs: this.options.limits.bodyIdleMs, totalMs: this.options.limits.bodyTotalMs };
  }
}
