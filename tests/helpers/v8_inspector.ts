/**
 * A minimal client of V8's inspector protocol, for benchmarks that look inside a server started
 * with `--inspect=127.0.0.1:0`: heap statistics, garbage collection, CPU profiles.
 */
export class V8Inspector {
  #next = 1;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(readonly socket: WebSocket) {
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data as string);
      const waiter = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiter) return;
      this.#pending.delete(message.id);
      if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
      else waiter.resolve(message.result);
    };
  }

  /** A free loopback port for `--inspect=127.0.0.1:PORT` (the start task's --quiet hides the address). */
  static freePort(): number {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    return port;
  }

  /** Connects to the inspector of a process started with `--inspect=127.0.0.1:PORT`. */
  static async atPort(port: number, timeoutMs = 10_000): Promise<V8Inspector> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
        return await V8Inspector.connect(targets[0].webSocketDebuggerUrl);
      } catch (error) {
        if (performance.now() > deadline) throw new Error(`no inspector on port ${port}: ${error}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }

  static async connect(url: string): Promise<V8Inspector> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
    return new V8Inspector(socket);
  }

  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    this.#pending.set(id, { resolve, reject });
    this.socket.send(JSON.stringify({ id, method, params }));
    return promise as Promise<T>;
  }

  /** Evaluates an expression in the server (awaiting a promise) and returns its value. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send<{ result: { value: T }; exceptionDetails?: unknown }>("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails));
    return r.result.value;
  }

  /** `Deno.memoryUsage()` of the server, in MB. */
  async memory(): Promise<{ rss: number; heapTotal: number; heapUsed: number; external: number }> {
    const m = await this.evaluate<Record<string, number>>("Deno.memoryUsage()");
    const mb = (n: number) => Math.round(n / 1e5) / 10;
    return { rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external) };
  }

  /** Profiles the server's CPU while `during` runs; returns self time per function, largest first. */
  async profile(during: () => Promise<void>, top = 25): Promise<{ fn: string; ms: number }[]> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: 200 });
    await this.send("Profiler.start");
    await during();
    const { profile } = await this.send<{ profile: CpuProfile }>("Profiler.stop");
    return selfTimes(profile).slice(0, top);
  }

  close(): void {
    this.socket.close();
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

function selfTimes(profile: CpuProfile): { fn: string; ms: number }[] {
  const names = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split("/").slice(-2).join("/");
    names.set(node.id, `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`);
  }
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = names.get(id) ?? "?";
    total.set(name, (total.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...total.entries()].map(([fn, ms]) => ({ fn, ms: Math.round(ms) })).sort((a, b) => b.ms - a.ms);
}
