/**
 * One MCP session under stress, over HTTP (its own `Mcp-Session-Id`) or a stdio server of its own.
 * Every call is timed and classified: a result, an error with its code, or a broken transport.
 */
import { CallToolResultSchema, Client } from "../../tests/helpers/sdk_client.ts";
import { StreamableHTTPClientTransport } from "../../tests/helpers/sdk_http_client.ts";
import type { TestServer } from "../../tests/helpers/harness.ts";
import { ModernClient } from "../../tests/helpers/modern_client.ts";
import type { Fleet } from "./fleet.ts";

export type Answer =
  | { kind: "ok"; json: Record<string, unknown>; ms: number }
  | { kind: "error"; code: string; text: string; ms: number }
  | { kind: "transport"; text: string; ms: number };

const CODE = /^([A-Z][A-Z_]+):/;

export class Session {
  private constructor(
    readonly via: "http" | "stdio",
    private client: Client,
    private readonly http: StreamableHTTPClientTransport | null,
    readonly stdio: TestServer | null,
    /** The HTTP server generation the session was opened on. */
    readonly generation: number,
    /** MCP 2026 over HTTP: the agent's client, which hands its workspace handle back with every call. */
    private readonly modern: ModernClient | null = null,
  ) {}

  /**
   * A session over HTTP; in the 2026 era (`fleet.era`) an agent named `agent` whose workspace is
   * its handle (`resume.id` comes back to it).
   */
  static async http(fleet: Fleet, resume?: { id: string; generation: number }, agent = "stress"): Promise<Session> {
    await fleet.ready();
    if (fleet.era === "2026") {
      const modern = await ModernClient.http(fleet.mcpUrl, { mode: "pin", info: { name: agent, version: "0.0.0" } });
      modern.workspace = resume?.id;
      const generation = resume?.generation ?? fleet.generation;
      return new Session("http", modern.client as unknown as Client, null, null, generation, modern);
    }
    const transport = new StreamableHTTPClientTransport(fleet.mcpUrl, resume ? { sessionId: resume.id } : {});
    const client = new Client({ name: "tmuxwright-stress", version: "0.0.0" });
    await client.connect(transport);
    return new Session("http", client, transport, null, resume?.generation ?? fleet.generation);
  }

  static async stdio(fleet: Fleet): Promise<Session> {
    const server = await fleet.stdio();
    return new Session("stdio", server.client, null, server, 0);
  }

  get id(): string | undefined {
    return this.modern ? this.modern.workspace : this.http?.sessionId;
  }

  /** Ending it ends nothing on the server: a 2026 workspace ends when its lease runs out (the idle expiry). */
  get endsByLease(): boolean {
    return this.modern !== null;
  }

  /** `limitMs` bounds the wait on the client side too: a call the server never answers ends as "transport". */
  async call(name: string, args: Record<string, unknown>, limitMs = 120_000, signal?: AbortSignal): Promise<Answer> {
    const started = performance.now();
    const ms = () => performance.now() - started;
    try {
      const raw = this.modern
        ? await this.modern.result(name, args, { timeout: limitMs, signal })
        : await this.client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: limitMs, signal });
      const result = CallToolResultSchema.parse(raw);
      const first = result.content[0];
      const text = first?.type === "text" ? first.text : "";
      const code = CODE.exec(text)?.[1] ?? "NO_CODE";
      // A 2026 workspace that ended (idle, or a restarted server) is what a 2025 session not found is.
      if (result.isError && this.modern && code === "WORKSPACE_EXPIRED") return { kind: "transport", text, ms: ms() };
      if (result.isError) return { kind: "error", code, text, ms: ms() };
      return { kind: "ok", json: (result.structuredContent ?? JSON.parse(text)) as Record<string, unknown>, ms: ms() };
    } catch (error) {
      return { kind: "transport", text: String((error as Error).message ?? error), ms: ms() };
    }
  }

  /** Ends the session as an agent that is done: DELETE /mcp (HTTP) or closing stdin (stdio). */
  async end(): Promise<void> {
    if (this.http) await this.http.terminateSession().catch(() => {});
    await this.client.close().catch(() => {});
    if (this.stdio) await this.stdio.close(false);
  }

  /** Goes away without a word: the HTTP session stays on the server until it expires; a stdio server is killed. */
  async drop(): Promise<void> {
    if (this.stdio) {
      try {
        Deno.kill(this.stdio.pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await this.client.close().catch(() => {});
  }
}
