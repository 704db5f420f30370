/**
 * The SDK v2 client (`@modelcontextprotocol/client` 2.4.0), which speaks MCP 2026-07-28 as well as
 * the 2025 era: `versionNegotiation` `auto` (probe with server/discover, fall back to initialize)
 * or pinned to 2026-07-28. Over stdio it starts the server as `deno task start` does; over HTTP it
 * connects to a running `--http` server. `call` hands a 2026 HTTP workspace handle back as an
 * agent would (every result carries it).
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cleanEnv, startPermissions, tmuxAt } from "./harness.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

export type Negotiation = "auto" | "pin" | "legacy";

export function negotiation(mode: Negotiation): ClientOptions["versionNegotiation"] {
  return { mode: mode === "pin" ? { pin: "2026-07-28" } : mode };
}

export interface ModernOptions {
  mode: Negotiation;
  capabilities?: ClientOptions["capabilities"];
  info?: { name: string; version: string };
}

export class ModernClient {
  /** The workspace handle a 2026 HTTP caller passes back (undefined on stdio: the connection is the caller). */
  workspace: string | undefined;

  private constructor(
    readonly client: Client,
    readonly handBack: boolean,
    private readonly cleanup: () => Promise<void>,
    readonly stderr: string[],
    /** stdio: the server's tmux socket. */
    readonly socket?: string,
  ) {}

  static create(options: ModernOptions): Client {
    return new Client(options.info ?? { name: "tmuxwright-v2-tests", version: "0.0.0" }, {
      capabilities: options.capabilities ?? {},
      versionNegotiation: negotiation(options.mode),
    });
  }

  /** The server over stdio, on its own tmux socket and state directory, with the start task's permissions. */
  static async stdio(
    options: ModernOptions & { args?: string[]; env?: Record<string, string>; client?: Client },
  ): Promise<ModernClient> {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw2" });
    const env = cleanEnv(options.env);
    const transport = new StdioClientTransport({
      command: "deno",
      args: [
        "run",
        ...startPermissions(env, [dir], options.args ?? []),
        MAIN,
        "--socket-path",
        `${dir}/s`,
        "--state-dir",
        `${dir}/state`,
        ...(options.args ?? []),
      ],
      env,
      stderr: "pipe",
    });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
    const client = options.client ?? ModernClient.create(options);
    await client.connect(transport);
    return new ModernClient(
      client,
      false,
      async () => {
        await client.close().catch(() => {});
        await tmuxAt(`${dir}/s`, "kill-server").catch(() => {});
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      },
      stderr,
      `${dir}/s`,
    );
  }

  /** A client of a running `--http` server. */
  static async http(
    url: URL,
    options: ModernOptions & { headers?: Record<string, string>; client?: Client },
  ): Promise<ModernClient> {
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: options.headers ?? {} } });
    const client = options.client ?? ModernClient.create(options);
    await client.connect(transport);
    return new ModernClient(client, true, () => client.close().catch(() => {}), []);
  }

  get era(): string | undefined {
    return this.client.getProtocolEra();
  }

  /** Calls a tool; its whole result. The workspace handle goes along once a result has handed one back. */
  async result(
    name: string,
    args: Record<string, unknown> = {},
    options: { timeout?: number; signal?: AbortSignal } = {},
  ) {
    const withHandle = this.handBack && this.workspace ? { workspace: this.workspace, ...args } : args;
    const result = await this.client.callTool({ name, arguments: withHandle }, {
      timeout: options.timeout ?? 120_000,
      signal: options.signal,
    });
    const fields = result.structuredContent as Record<string, unknown> | undefined;
    if (this.handBack && typeof fields?.workspace === "string") this.workspace = fields.workspace;
    return result;
  }

  /** Calls a tool that must succeed; its structured result. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = await this.result(name, args);
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Calls a tool that must fail; its error text. */
  async callError(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const result = await this.result(name, args);
    const text = result.content.map((block) => block.type === "text" ? block.text : "").join("\n");
    if (!result.isError) throw new Error(`${name} was expected to fail but returned: ${text}`);
    return text;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.cleanup();
  }
}
