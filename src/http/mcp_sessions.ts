import { isInitializeRequest, type McpServer, WebStandardStreamableHTTPServerTransport } from "./sdk_http.ts";
import { onBodyEnd } from "./body_end.ts";
import { rpcFailure } from "./responses.ts";

export interface McpSessionOptions {
  /** A fresh McpServer over the one shared engine; called once per MCP session. */
  createServer: () => McpServer;
  maxSessions: number;
  /** A session with no request in progress (its listening GET stream aside) for this long is closed. */
  idleTimeoutMs: number;
  log: (line: string) => void;
  /** What else holds room under maxSessions (the workspaces of 2026-era callers). */
  held?: () => number;
}

interface Session {
  id: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastActive: number;
  /** Requests whose response (often an SSE stream) is still being sent. */
  open: number;
}

/**
 * Stateful MCP Streamable HTTP sessions (`Mcp-Session-Id`), one McpServer and one SDK transport
 * each. Guards (Host, Origin, token, body size) run before a request gets here.
 */
export class McpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(private readonly options: McpSessionOptions) {
    const every = Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4)));
    this.#sweeper = setInterval(() => this.#sweep(), every);
    Deno.unrefTimer(Number(this.#sweeper));
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** `body` is the already read and size-checked POST body (undefined for GET and DELETE). */
  async handle(request: Request, body: string | undefined): Promise<Response> {
    if (this.#closed) return rpcFailure(503, "Server is shutting down");
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#sessions.get(id);
      if (!session) return rpcFailure(404, "Session not found", {}, -32001);
      return await this.#forward(session, request, body);
    }
    if (request.method !== "POST" || !opensSession(body)) {
      return rpcFailure(400, "Bad Request: Mcp-Session-Id header is required");
    }
    const held = this.options.held?.() ?? 0;
    if (this.#sessions.size + held >= this.options.maxSessions) {
      return rpcFailure(
        503,
        `Too many MCP sessions: ${this.#sessions.size} open${
          held ? ` and ${held} workspaces of MCP 2026 callers` : ""
        }, ` +
          `the limit is ${this.options.maxSessions}; ` +
          "end one with DELETE /mcp or wait for idle ones to expire",
        { "retry-after": "5" },
      );
    }
    const session = await this.#open();
    const response = await this.#forward(session, request, body);
    // The SDK names the session while handling initialize; a failed initialize leaves none.
    if (!this.#sessions.has(session.id)) await session.server.close().catch(() => {});
    return response;
  }

  /** Closes every session (their SSE streams end), then stops the idle sweeper. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.values()].map((s) => this.#close(s, "server stopping")));
  }

  async #open(): Promise<Session> {
    const session = { id: "", lastActive: performance.now(), open: 0 } as Session;
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.#sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id); // DELETE /mcp; the SDK closes the transport itself
      },
    });
    session.transport.onclose = () => {
      if (session.id) this.#sessions.delete(session.id);
    };
    session.server = this.options.createServer();
    await session.server.connect(session.transport);
    return session;
  }

  async #forward(session: Session, request: Request, body: string | undefined): Promise<Response> {
    session.lastActive = performance.now();
    // The standalone SSE stream (GET) only listens: it does not keep an idle session. A client that
    // vanished behind a relay leaves it open for good (nothing is written on it to fail).
    const counted = request.method !== "GET";
    if (counted) session.open++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (counted) session.open--;
      session.lastActive = performance.now();
    };
    try {
      const forwarded = body === undefined ? request : new Request(request, { body });
      return onBodyEnd(await session.transport.handleRequest(forwarded), end);
    } catch (error) {
      end();
      throw error;
    }
  }

  async #close(session: Session, why: string): Promise<void> {
    this.#sessions.delete(session.id);
    try {
      await session.server.close();
    } catch (error) {
      this.options.log(`[tmuxwright] closing MCP session ${session.id} (${why}) failed: ${error}`);
    }
  }

  #sweep(): void {
    const now = performance.now();
    for (const session of this.#sessions.values()) {
      if (session.open === 0 && now - session.lastActive > this.options.idleTimeoutMs) {
        this.options.log(`[tmuxwright] MCP session ${session.id} expired after ${this.options.idleTimeoutMs} ms idle`);
        this.#close(session, "idle");
      }
    }
  }
}

/** True when a POST body (one message or a batch) contains an initialize request. */
function opensSession(body: string | undefined): boolean {
  try {
    const parsed = JSON.parse(body ?? "");
    return (Array.isArray(parsed) ? parsed : [parsed]).some((message) => isInitializeRequest(message));
  } catch {
    return false;
  }
}
