import { createMcpHandler, type McpHttpHandler, type McpServer, type ServerNotifier } from "./sdk_http.ts";
import { onBodyEnd } from "./body_end.ts";

/** What the MCP layer gives the listener for the 2026 era. */
export interface ModernMcpOptions {
  /** A fresh McpServer for one 2026-era request (the SDK calls it once per request). */
  createServer: () => McpServer;
  /** A `subscriptions/listen` stream opened naming these resource URIs; returns its end. */
  listen: (uris: string[], notify: ServerNotifier) => () => void;
  /** Called once: changes (the pane set) go to open listen streams through `notify`; returns its detach. */
  watch: (notify: ServerNotifier) => () => void;
  /** The URIs a listen request's params name. */
  listenedUris: (params: unknown) => string[];
  log: (line: string) => void;
}

/**
 * MCP 2026-07-28 at /mcp, stateless (docs/design/mcp_2026.md): the SDK's `createMcpHandler`,
 * strict (2025 traffic goes to McpSessions before it gets here), one McpServer per request. The
 * guards ran already; the body was read and parsed once, by the router.
 */
export class ModernMcp {
  readonly #handler: McpHttpHandler;
  readonly #unwatch: () => void;

  constructor(private readonly options: ModernMcpOptions) {
    this.#handler = createMcpHandler(() => options.createServer(), {
      legacy: "reject",
      onerror: (error) => options.log(`[tmuxwright] MCP 2026 request: ${error.message}`),
    });
    this.#unwatch = options.watch(this.#handler.notify);
  }

  async handle(request: Request, body: string | undefined, parsed: unknown): Promise<Response> {
    const forwarded = body === undefined ? request : new Request(request, { body });
    const listening = isListen(parsed);
    const response = await this.#handler.fetch(forwarded, { parsedBody: parsed });
    if (!listening || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
    const end = this.options.listen(this.options.listenedUris(listening.params), this.#handler.notify);
    return onBodyEnd(response, end);
  }

  async close(): Promise<void> {
    this.#unwatch();
    await this.#handler.close();
  }
}

function isListen(parsed: unknown): { params?: unknown } | null {
  const message = parsed as { method?: unknown; id?: unknown; params?: unknown } | null;
  return message?.method === "subscriptions/listen" && message.id !== undefined ? message : null;
}
