/** A one-way delay: each chunk is passed on `delayMs` (plus up to `jitterMs`, in order) after it came. */
export interface LinkDelay {
  delayMs: number;
  jitterMs?: number;
}

/**
 * A loopback TCP relay between ssh and sshd that a test can break: `cut()` drops every live
 * connection (as a reset network), `blackhole()` keeps them open but passes no byte either way
 * and leaves new ones unanswered (as a dead route), `heal()` forwards again. `delay` holds every
 * byte back in each direction, as a distant network would (the kernel here has no netem), so a
 * round trip costs 2 × delay; `setDelay` changes it for what comes next.
 */
export class TcpRelay {
  #delay: LinkDelay = { delayMs: 0 };
  readonly #listener: Deno.TcpListener;
  readonly #live = new Set<{ a: Deno.Conn; b: Deno.Conn | null }>();
  #blackholed = false;
  #healed = Promise.withResolvers<void>();
  readonly #serving: Promise<void>;

  constructor(private readonly targetPort: number, delay?: LinkDelay) {
    if (delay) this.setDelay(delay);
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#serving = this.#serve();
  }

  get port(): number {
    return (this.#listener.addr as Deno.NetAddr).port;
  }

  get connections(): number {
    return this.#live.size;
  }

  /** The delay each way from now on (bytes already held keep theirs). */
  setDelay(delay: LinkDelay): void {
    this.#delay = { delayMs: Math.max(0, delay.delayMs), jitterMs: Math.max(0, delay.jitterMs ?? 0) };
  }

  get delay(): LinkDelay {
    return { ...this.#delay };
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
    // Held chunks leave in arrival order, each at its own time: a late one never overtakes.
    let last = 0;
    let chain = Promise.resolve();
    let failed: unknown = null;
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      // Black-holed bytes are swallowed, as a dead route loses them.
      if (this.#blackholed) continue;
      const { delayMs, jitterMs = 0 } = this.#delay;
      if (delayMs === 0 && jitterMs === 0) {
        await chain;
        await writeAll(to, buffer.subarray(0, n));
        continue;
      }
      const chunk = buffer.slice(0, n);
      const at = Math.max(last, performance.now() + delayMs + Math.random() * jitterMs);
      last = at;
      chain = chain.then(async () => {
        const wait = at - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (failed === null && !this.#blackholed) await writeAll(to, chunk);
      }).catch((error) => void (failed = error));
      if (failed !== null) throw failed;
    }
    await chain;
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

async function writeAll(to: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await to.write(bytes.subarray(offset));
}
