import { Client } from "./sdk_client.ts";
import { StreamableHTTPClientTransport } from "./sdk_http_client.ts";
import { cleanEnv, startPermissions, tmuxAt } from "./harness.ts";
import type { HttpLimits } from "../../src/http/mod.ts";

const ENTRY = new URL("./http_mcp_server.ts", import.meta.url).pathname;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * `tmuxwright --http 127.0.0.1:0` with the start task's permissions, on its own tmux socket; with
 * `limits`, a test entry that builds the same App and passes them to serveHttp. `await using`
 * stops it and removes its tmux server.
 */
export class HttpMcpServer {
  private constructor(
    readonly url: string,
    readonly dir: string,
    private readonly child: Deno.ChildProcess,
    readonly stderr: string[],
  ) {}

  static async start(
    options: {
      token?: string;
      limits?: Partial<HttpLimits>;
      flags?: string[];
      dir?: string;
      env?: Record<string, string>;
    } = {},
  ): Promise<HttpMcpServer> {
    // `dir`: the tmux socket and state directory of an earlier server (a restart).
    const dir = options.dir ?? await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    // `env`: e.g. TMUXWRIGHT_HOSTS, which the start task's permissions are derived from.
    const env = cleanEnv({ ...(options.token ? { TMUX_BRIDGE_TOKEN: options.token } : {}), ...options.env });
    const where = ["--socket-path", `${dir}/s`, "--state-dir", `${dir}/state`, ...options.flags ?? []];
    const child = new Deno.Command("deno", {
      args: [
        "run",
        ...startPermissions(env, [dir]),
        ...(options.limits
          ? [ENTRY, JSON.stringify({ token: options.token ?? null, limits: options.limits }), ...where]
          : [MAIN, ...where, "--http", "127.0.0.1:0"]),
      ],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr: string[] = [];
    child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void stderr.push(chunk) }),
    ).catch(() => {});
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const next = await reader.read();
      if (next.done) throw new Error(`server exited before listening: ${stderr.join("")}`);
      text += next.value;
    }
    (async () => { // keep draining stdout so the child never blocks on a full pipe
      while (!(await reader.read()).done);
    })().catch(() => {});
    return new HttpMcpServer(/(https?:\/\/[^\s]+)/.exec(text)![1], dir, child, stderr);
  }

  /** The server's process id (its RSS and CPU time are read from /proc by the benchmarks). */
  get pid(): number {
    return this.child.pid;
  }

  get mcpUrl(): URL {
    return new URL(`${this.url}/mcp`);
  }

  /** A bare `initialize` POST (no SDK): the answer as it comes, for tests of limits and raw streams. */
  initializeRaw(clientName = "raw"): Promise<Response> {
    return fetch(this.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: clientName, version: "0" } },
      }),
    });
  }

  /** An SDK client connected over Streamable HTTP with these extra request headers (and this clientInfo). */
  async client(
    headers: Record<string, string> = {},
    info: { name: string; version: string; title?: string } = { name: "tmuxwright-http-tests", version: "0.0.0" },
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(this.mcpUrl, { requestInit: { headers } });
    const client = new Client(info);
    await client.connect(transport);
    return { client, transport };
  }

  tmux(...args: string[]) {
    return tmuxAt(`${this.dir}/s`, ...args);
  }

  /** Stops the server as an operator does (SIGTERM) and waits for it to exit; the tmux server stays. */
  async stop(): Promise<Deno.CommandStatus> {
    try {
      this.child.kill("SIGTERM");
    } catch { /* already gone */ }
    return await this.child.status;
  }

  /** Kills the server with SIGKILL (a crash: nothing of its own shutdown runs) and waits for it. */
  async crash(): Promise<Deno.CommandStatus> {
    try {
      this.child.kill("SIGKILL");
    } catch { /* already gone */ }
    return await this.child.status;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
    await this.tmux("kill-server").catch(() => {});
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
