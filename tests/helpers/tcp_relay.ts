/**
 * A loopback TCP relay between ssh and sshd that a test can break: `cut()` drops every live
 * connection (as a reset network), `blackhole()` keeps them open but passes no byte either way
 * and leaves new ones unanswered (as a dead route), `heal()` forwards again.
 */
export class TcpRelay {
  readonly #listener: Deno.TcpListener;
  readonly #live = new Set<{ a: Deno.Conn; b: Deno.Conn | null }>();
  #blackholed = false;
  #healed = Promise.withResolvers<void>();
  readonly #serving: Promise<void>;

  constructor(private readonly targetPort: number) {
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#serving = this.#serve();
  }

  get port(): number {
    return (this.#listener.addr as Deno.NetAddr).port;
  }

  get connections(): number {
    return this.#live.size;
  }

  cut(): void {
    for (const pair of this.#live) this.#drop(pair);
  }

  blackhole(): void {
    this.#blackholed = true;
  }

  heal(): void {
    this.#blackholed = false;
    this.#healed.resolve();
    this.#healed = Promise.withResolvers<void>();
  }

  async close(): Promise<void> {
    this.heal();
    this.#listener.close();
    this.cut();
    await this.#serving;
  }

  async #serve(): Promise<void> {
    try {
      for await (const a of this.#listener) void this.#relay(a);
    } catch { /* closed */ }
  }

  async #relay(a: Deno.Conn): Promise<void> {
    const pair: { a: Deno.Conn; b: Deno.Conn | null } = { a, b: null };
    this.#live.add(pair);
    try {
      while (this.#blackholed) await this.#healed.promise; // a new connection to a dead route: no answer
      if (!this.#live.has(pair)) return;
      const b = await Deno.connect({ hostname: "127.0.0.1", port: this.targetPort });
      // A relay forwards each write as it comes, as a router would (Nagle would hold small ones back).
      (a as Deno.TcpConn).setNoDelay(true);
      b.setNoDelay(true);
      pair.b = b;
      await Promise.all([this.#pump(a, pair.b), this.#pump(pair.b, a)]);
    } catch {
      /* one side ended */
    } finally {
      this.#drop(pair);
    }
  }

  async #pump(from: Deno.Conn, to: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      // Black-holed bytes are swallowed, as a dead route loses them.
      if (this.#blackholed) continue;
      let offset = 0;
      while (offset < n) offset += await to.write(buffer.subarray(offset, n));
    }
    throw new Error("ended");
  }

  #drop(pair: { a: Deno.Conn; b: Deno.Conn | null }): void {
    if (!this.#live.delete(pair)) return;
    for (const conn of [pair.a, pair.b]) {
      try {
        conn?.close();
      } catch { /* already closed */ }
    }
  }
}
