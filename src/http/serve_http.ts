import { HttpConfigError, type HttpServeOptions, resolveOptions } from "./options.ts";
import { Router } from "./router.ts";
import { McpSessions } from "./mcp_sessions.ts";
import { ModernMcp } from "./mcp_modern.ts";
import { FrontDoor } from "./front_door.ts";
import { onBodyEnd } from "./body_end.ts";

export interface HttpServerHandle {
  hostname: string;
  port: number;
  /** `http(s)://host:port` as a client would write it (IPv6 in brackets). */
  url: string;
  /** Closes MCP sessions and the bridge backend's waits, then the listener; resolves when all is done. */
  shutdown(): Promise<void>;
  /** 2025-era MCP sessions open now. */
  readonly mcpSessions: number;
}

/**
 * Serves /mcp, /health and /v1/tmux: clients connect to the front door (connection cap, header
 * deadline, TLS), which relays to Deno.serve on a private loopback port. Operator mistakes (a
 * remote bind without a token, an invalid origin, unreadable TLS files) throw before anything listens.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpServerHandle> {
  const resolved = resolveOptions(options);
  const tls = options.tls
    ? { cert: await readPem("certificate", options.tls.certFile), key: await readPem("key", options.tls.keyFile) }
    : null;
  const stopping = new AbortController();
  const sessions = options.createMcpServer
    ? new McpSessions({
      createServer: options.createMcpServer,
      maxSessions: resolved.limits.maxMcpSessions,
      idleTimeoutMs: resolved.limits.mcpIdleTimeoutMs,
      log: resolved.log,
      held: options.mcpHeld,
    })
    : null;
  const modern = sessions && options.modernMcp ? new ModernMcp({ ...options.modernMcp, log: resolved.log }) : null;
  const mcp = sessions ? { sessions, modern } : null;
  const router = new Router(resolved, options.bridge ?? null, mcp, stopping.signal, tls !== null);
  const defaultPort = tls ? 443 : 80;
  let listenPort = 0;
  let door: FrontDoor | null = null;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
    onError: (error) => {
      resolved.log(`[tmuxwright] HTTP error: ${error instanceof Error ? error.stack : error}`);
      return new Response("Internal server error.", { status: 500 });
    },
  }, (request, info) => {
    // Every request comes through the front door; a local process that found the private port is loopback.
    const address = door?.peerOf(info.remoteAddr) ??
      (info.remoteAddr.transport === "tcp" ? info.remoteAddr.hostname : "");
    options.onRequest?.(request);
    const ended = door?.requestStarted(info.remoteAddr) ?? (() => {});
    return untilSent(router.handle(request, { address, listenPort, defaultPort }), ended);
  });
  try {
    door = FrontDoor.open(
      { hostname: options.hostname, port: options.port, tls },
      (server.addr as Deno.NetAddr).port,
      {
        maxConnections: resolved.limits.maxConnections,
        headerTimeoutMs: resolved.limits.headerTimeoutMs,
        idleTimeoutMs: resolved.limits.idleTimeoutMs,
      },
      resolved.log,
    );
  } catch (error) {
    await server.shutdown();
    throw error;
  }
  const addr = door.addr;
  listenPort = addr.port;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  let stopped: Promise<void> | null = null;
  return {
    hostname: addr.hostname,
    port: addr.port,
    url: `${tls ? "https" : "http"}://${host}:${addr.port}`,
    get mcpSessions() {
      return sessions?.size ?? 0;
    },
    shutdown() {
      stopped ??= (async () => {
        stopping.abort(new Error("server stopping"));
        await Promise.all([sessions?.closeAll(), modern?.close()]);
        await server.shutdown();
        await door!.close();
      })();
      return stopped;
    },
  };
}

/**
 * Calls `ended` once the answer is made, or for an event stream (MCP's, /watch's) once the stream
 * has ended: until then its connection is not idle, however long a wait or a silent stream lasts.
 * Other bodies are sent as they are (their bytes keep the connection from being idle).
 */
async function untilSent(answer: Response | Promise<Response>, ended: () => void): Promise<Response> {
  let response: Response;
  try {
    response = await answer;
  } catch (error) {
    ended();
    throw error;
  }
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    ended();
    return response;
  }
  return onBodyEnd(response, ended);
}

async function readPem(what: string, path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new HttpConfigError(
      `Cannot read the TLS ${what} "${path}": ${(error as Error).message}; ` +
        "create a certificate for localhost (e.g. mkcert localhost) and pass --tls-cert and --tls-key",
    );
  }
}
