/**
 * The listener clients connect to. Deno.serve (2.9) has no limit on connections and no deadline
 * for a request's headers: a client that opens connections and never finishes a request holds
 * each one (and ~10 KiB of memory) for as long as it likes. The front door accepts connections
 * itself, caps how many are open, gives each connection's first request a deadline for its
 * headers, and relays the bytes to Deno.serve on a private loopback port. It remembers which
 * client each relayed connection is for, so the peer checks still see the real address. After the
 * first request a kept-alive connection that carries no request and moves no byte for the idle
 * deadline is closed (requests in flight, an event stream included, are told by the inner server).
 */

export interface FrontDoorLimits {
  /** Connections open at once; one more is answered 503 with Retry-After and closed. */
  maxConnections: number;
  /** Time for the first request's headers to arrive whole; then 408 and the connection is closed. */
  headerTimeoutMs: number;
  /** A kept-alive connection with no request in flight and no bytes either way for this long is closed. */
  idleTimeoutMs: number;
}

export interface FrontDoorListen {
  hostname: string;
  port: number;
  tls?: { cert: string; key: string } | null;
}

const HEADER_END = new Uint8Array([13, 10, 13, 10]); // \r\n\r\n
const CHUNK = 16 * 1024;
const FIRST_READ = 4 * 1024;

export class FrontDoor {
  readonly #listener: Deno.Listener;
  readonly #open = new Set<Deno.Conn>();
  readonly #relays = new Set<Promise<void>>();
  /** Local port of a relayed connection to the inner server → the client's address. */
  readonly #peers = new Map<number, string>();
  /** Local port of a relayed connection → its requests in flight (answers still being sent). */
  readonly #inFlight = new Map<number, number>();
  #closed = false;
  readonly #accepting: Promise<void>;

  private constructor(
    listener: Deno.Listener,
    private readonly innerPort: number,
    private readonly limits: FrontDoorLimits,
    private readonly log: (line: string) => void,
  ) {
    this.#listener = listener;
    this.#accepting = this.#accept();
  }

  /** Listens where clients connect (TLS ends here) and relays to `innerPort` on 127.0.0.1. */
  static open(
    where: FrontDoorListen,
    innerPort: number,
    limits: FrontDoorLimits,
    log: (line: string) => void,
  ): FrontDoor {
    const listener = where.tls
      ? Deno.listenTls({ hostname: where.hostname, port: where.port, cert: where.tls.cert, key: where.tls.key })
      : Deno.listen({ hostname: where.hostname, port: where.port });
    return new FrontDoor(listener, innerPort, limits, log);
  }

  get addr(): Deno.NetAddr {
    return this.#listener.addr as Deno.NetAddr;
  }

  /** Connections open now (relayed or waiting for their headers). */
  get openConnections(): number {
    return this.#open.size;
  }

  /** The client a request on the inner server came from, by that connection's local port. */
  peerOf(innerAddr: Deno.Addr): string | null {
    if (innerAddr.transport !== "tcp") return null;
    return this.#peers.get(innerAddr.port) ?? null;
  }

  /**
   * A request on the inner server began on this connection: it is not idle until the returned
   * function is called (when its answer has been sent whole, or has failed).
   */
  requestStarted(innerAddr: Deno.Addr): () => void {
    if (innerAddr.transport !== "tcp") return () => {};
    const port = innerAddr.port;
    if (!this.#peers.has(port)) return () => {};
    this.#inFlight.set(port, (this.#inFlight.get(port) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#inFlight.get(port) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(port, left);
      else this.#inFlight.delete(port);
    };
  }

  /**
   * Stops accepting; relays end as the inner server closes its side (last answers still reach
   * their clients), and whatever is still open after `graceMs` is closed.
   */
  async close(graceMs = 1000): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#listener.close();
    } catch { /* already closed */ }
    await this.#accepting;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => timer = setTimeout(resolve, graceMs));
    await Promise.race([Promise.allSettled([...this.#relays]), grace]);
    clearTimeout(timer);
    for (const conn of this.#open) closeQuietly(conn);
  }

  async #accept(): Promise<void> {
    while (!this.#closed) {
      let conn: Deno.Conn;
      try {
        conn = await this.#listener.accept();
      } catch (error) {
        if (this.#closed || error instanceof Deno.errors.BadResource) return;
        // A failed handshake or a reset before accept: that client's problem, not the listener's.
        continue;
      }
      if (this.#open.size >= this.limits.maxConnections) {
        void refuse(
          conn,
          503,
          "Service Unavailable",
          "Too many open connections; retry shortly.",
          "Retry-After: 1\r\n",
        );
        continue;
      }
      noDelay(conn);
      this.#open.add(conn);
      const relay: Promise<void> = this.#relay(conn).finally(() => {
        this.#open.delete(conn);
        this.#relays.delete(relay);
      });
      this.#relays.add(relay);
    }
  }

  async #relay(client: Deno.Conn): Promise<void> {
    const headers = new HeaderDeadline(this.limits.headerTimeoutMs);
    // A connection costs no relay (and no buffers) until its first bytes arrive.
    const first = await Promise.race([readOnce(client, FIRST_READ), headers.timedOut.then(() => "late" as const)]);
    if (first === "late" || first === null) {
      headers.cancel();
      if (first === "late") await writeAll(client, timeoutResponse()).catch(() => {});
      return closeQuietly(client);
    }
    headers.saw(first);
    let inner: Deno.TcpConn;
    try {
      inner = await Deno.connect({ hostname: "127.0.0.1", port: this.innerPort });
    } catch (error) {
      headers.cancel();
      this.log(`[tmuxwright] HTTP relay cannot reach its server: ${(error as Error).message}`);
      return refuse(client, 503, "Service Unavailable", "The server is stopping or overloaded; retry shortly.", "");
    }
    noDelay(inner);
    const innerPort = (inner.localAddr as Deno.NetAddr).port;
    const peer = client.remoteAddr.transport === "tcp" ? (client.remoteAddr as Deno.NetAddr).hostname : "";
    this.#peers.set(innerPort, peer);
    this.#open.add(inner);
    const idle = new IdleDeadline(this.limits.idleTimeoutMs, () => (this.#inFlight.get(innerPort) ?? 0) > 0, () => {
      // Both sides at once: the inner server has no request on it, the client sees a closed keep-alive.
      closeQuietly(inner);
      closeQuietly(client);
    });
    try {
      await writeAll(inner, first);
      // Client to server; its end (or error) is passed on as a half-close.
      void copy(client, inner, (chunk) => {
        headers.saw(chunk);
        idle.saw();
      }).then(() => closeWriteQuietly(inner));
      const downstream = copy(inner, client, () => idle.saw());
      const late = await Promise.race([
        headers.timedOut.then(() => true),
        headers.arrived.then(() => false),
        downstream.then(() => false),
      ]);
      if (late) {
        // Nothing was answered yet: the inner server is still waiting for the rest of the headers.
        await writeAll(client, timeoutResponse()).catch(() => {});
        return;
      }
      headers.cancel();
      idle.start();
      // The server's side decides: when it closes (a client's half-close reached it as end of
      // input, or it ended the connection), the client's side is closed too.
      await downstream;
    } finally {
      headers.cancel();
      idle.stop();
      this.#peers.delete(innerPort);
      this.#inFlight.delete(innerPort);
      this.#open.delete(inner);
      closeQuietly(inner);
      closeQuietly(client);
    }
  }
}

/** One read of at most `size` bytes: the bytes, or null at end of input or on an error. */
async function readOnce(conn: Deno.Conn, size: number): Promise<Uint8Array | null> {
  const buffer = new Uint8Array(size);
  try {
    const n = await conn.read(buffer);
    return n === null ? null : buffer.slice(0, n);
  } catch {
    return null;
  }
}

function timeoutResponse(): Uint8Array {
  return response(408, "Request Timeout", "The request headers did not arrive in time.", "");
}

/** Watches the first request's bytes for the end of its headers, with a deadline. */
class HeaderDeadline {
  readonly arrived: Promise<void>;
  readonly timedOut: Promise<void>;
  #resolveArrived!: () => void;
  #timer: ReturnType<typeof setTimeout>;
  #tail = new Uint8Array(0);
  #done = false;

  constructor(ms: number) {
    this.arrived = new Promise((resolve) => this.#resolveArrived = resolve);
    let fire!: () => void;
    this.timedOut = new Promise((resolve) => fire = resolve);
    this.#timer = setTimeout(() => this.#done || fire(), ms);
  }

  saw(chunk: Uint8Array): void {
    if (this.#done) return;
    // Only the last 3 bytes of earlier chunks can start the end marker.
    const joined = new Uint8Array(this.#tail.length + chunk.length);
    joined.set(this.#tail);
    joined.set(chunk, this.#tail.length);
    if (indexOf(joined, HEADER_END) >= 0) {
      this.cancel();
      this.#resolveArrived();
      return;
    }
    this.#tail = joined.slice(Math.max(0, joined.length - 3));
  }

  cancel(): void {
    this.#done = true;
    clearTimeout(this.#timer);
  }
}

/**
 * Closes a connection that has been idle (no bytes either way, no request in flight) for `ms`.
 * One timer per connection, pushed back lazily: a busy connection costs a timer every `ms`.
 */
class IdleDeadline {
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(private readonly ms: number, private readonly busy: () => boolean, private readonly onIdle: () => void) {}

  saw(): void {
    this.#last = performance.now();
  }

  start(): void {
    if (this.#stopped || this.ms <= 0) return;
    const wait = Math.max(0, this.#last + this.ms - performance.now());
    this.#timer = setTimeout(() => {
      if (this.#stopped) return;
      if (this.busy()) this.saw(); // an answer still being made or streamed is not idle: counted again from now
      if (performance.now() - this.#last >= this.ms) {
        this.#stopped = true;
        this.onIdle();
        return;
      }
      this.start();
    }, wait);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Copies until end of input or an error on either side; `onChunk` sees each chunk first. */
async function copy(from: Deno.Conn, to: Deno.Conn, onChunk?: (chunk: Uint8Array) => void): Promise<void> {
  const buffer = new Uint8Array(CHUNK);
  try {
    while (true) {
      const n = await from.read(buffer);
      if (n === null) return;
      const chunk = buffer.subarray(0, n);
      onChunk?.(chunk);
      await writeAll(to, chunk);
    }
  } catch { /* a reset or a close on either side ends the copy */ }
}

async function writeAll(to: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) written += await to.write(bytes.subarray(written));
}

function response(status: number, reason: string, text: string, extraHeaders: string): Uint8Array {
  return new TextEncoder().encode(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${
      text.length + 1
    }\r\nConnection: close\r\n${extraHeaders}\r\n${text}\n`,
  );
}

async function refuse(conn: Deno.Conn, status: number, reason: string, text: string, extra: string): Promise<void> {
  await writeAll(conn, response(status, reason, text, extra)).catch(() => {});
  closeQuietly(conn);
}

/**
 * Relayed bytes go on at once: with Nagle's algorithm a small write waiting for the peer's
 * delayed ACK cost ~40 ms per MCP reply (measured: 45 ms instead of 2.3 ms).
 */
function noDelay(conn: Deno.Conn): void {
  try {
    (conn as Partial<Deno.TcpConn>).setNoDelay?.(true);
  } catch { /* not a TCP socket */ }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

function closeWriteQuietly(conn: Deno.Conn): void {
  conn.closeWrite().catch(() => {});
}
