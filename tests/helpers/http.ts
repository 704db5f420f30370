import { type HttpServeOptions, serveHttp, StubBackend } from "../../src/http/mod.ts";
import { taskPermissions as taskFlags } from "./harness.ts";

export const ALLOWED = "https://localhost:3141";

/** A real listener on an ephemeral loopback port serving the stub bridge; `await using` stops it. */
export async function startHttp(options: Partial<HttpServeOptions> = {}) {
  const logs: string[] = [];
  const handle = await serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    bridge: new StubBackend(),
    log: (line) => logs.push(line),
    ...options,
  });
  return {
    ...handle,
    logs,
    /** POST /v1/tmux with a JSON body (or a raw string) and optional headers; returns status and parsed body. */
    async bridge(body: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${handle.url}/v1/tmux`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: parseOrText(text) };
    },
    async [Symbol.asyncDispose]() {
      await handle.shutdown();
    },
  };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends bytes over a plain TCP connection and reads the reply: for what fetch will not send (a
 * forged Host header, a body that stalls). `stallAfterWrite` keeps the connection open without
 * finishing the body until the server answers.
 */
export async function rawHttp(port: number, request: string, timeoutMs = 10_000): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => conn.close(), timeoutMs);
  try {
    await conn.write(new TextEncoder().encode(request));
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(65536);
    let text = "";
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      text = new TextDecoder().decode(concat(chunks));
      const complete = responseComplete(text);
      if (complete) break;
    }
    return parseRaw(text);
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* already closed */ }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function responseComplete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  if (length) return new TextEncoder().encode(text.slice(end + 4)).length >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end))) return text.endsWith("0\r\n\r\n");
  return /^HTTP\/1\.1 (204|304)/.test(text);
}

function parseRaw(text: string): RawResponse {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no HTTP response; got ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  let body = text.slice(end + 4);
  if (headers.get("transfer-encoding") === "chunked") body = dechunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** The permission flags of a deno.json task, expanded by sh from `env`, `extraPaths` added to read and write. */
export function taskPermissions(task: string, env: Record<string, string>, extraPaths: string[] = []): string[] {
  return taskFlags(task, env, extraPaths).flags;
}
