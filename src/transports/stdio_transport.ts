import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "../mcp/sdk.ts";
import { findRequestId, LineFramer } from "./line_framer.ts";

/**
 * Largest JSON-RPC message accepted, in bytes. The largest argument a tool takes is 1,000,000
 * characters, which JSON-escaped and UTF-8 encoded stays well under this.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

interface Writer {
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * MCP over stdio, newline-delimited JSON, without the SDK transport's failure modes: a line over
 * MAX_MESSAGE_BYTES is skipped (never buffered) and answered with a JSON-RPC error, a line that
 * is not JSON-RPC gets a parse or invalid-request error, and a failed write (the client closed
 * our stdout: EPIPE) or the end of stdin calls `onEnd` once, so the server can clean up and exit.
 */
export class StdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  #writes: Promise<void> = Promise.resolve();
  #ended = false;

  constructor(
    private readonly onEnd: (why: "stdin closed" | "stdout closed") => void,
    private readonly input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    private readonly output: Writer = Deno.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
    /** Sees each message before the SDK does (the 2026 era's listen streams open and end here). */
    private readonly observe: (message: JSONRPCMessage) => void = () => {},
  ) {}

  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    const framer = new LineFramer(this.maxBytes);
    try {
      for await (const chunk of this.input) {
        for (const framed of framer.push(chunk)) {
          if (framed.kind === "oversize") {
            const mib = this.maxBytes / 1024 / 1024;
            console.error(`[tmuxwright] refused a message of ${framed.bytes} bytes: over the ${mib} MiB limit`);
            this.#reply(
              findRequestId(framed.head, framed.tail),
              -32600,
              `Request too large: ${framed.bytes} bytes; the limit is ${this.maxBytes} bytes`,
            );
          } else if (framed.text.trim() !== "") {
            this.#receive(framed.text);
          }
        }
      }
    } catch {
      // A read error ends the session like EOF does.
    }
    this.#end("stdin closed");
  }

  #receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.#reply(null, -32700, "Parse error: the line is not JSON");
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown })?.id;
      const known = typeof id === "string" || typeof id === "number" ? id : null;
      return this.#reply(known, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
    }
    this.observe(message);
    this.onmessage?.(message);
  }

  #reply(id: string | number | null, code: number, message: string): void {
    void this.#write({ jsonrpc: "2.0", id, error: { code, message } });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  /** Writes are chained so messages never interleave; a failed write ends the session quietly. */
  #write(message: unknown): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    this.#writes = this.#writes.then(async () => {
      if (this.#ended) return;
      try {
        for (let n = 0; n < bytes.length;) n += await this.output.write(bytes.subarray(n));
      } catch {
        this.#end("stdout closed");
      }
    });
    return this.#writes;
  }

  #end(why: "stdin closed" | "stdout closed"): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd(why);
  }

  close(): Promise<void> {
    this.#ended = true;
    this.onclose?.();
    return Promise.resolve();
  }
}
