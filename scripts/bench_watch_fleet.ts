/**
 * /watch over several hosts: does a host that is down slow the page or the other hosts? One
 * server (--http) with the lab's four hosts (tests/helpers/sshd.ts), a pane on each; side by side
 * in one run, with every host up and then with delta black-holed (its link cut, every new
 * connection to it hanging):
 *
 * - a new /watch/events stream: ms to its first `panes` event, and to the event that lists every
 *   reachable host's pane;
 * - a remote pane's output: ms from a line written on alpha (by tmux there) to the `output`
 *   event carrying it, on a stream that follows that pane.
 *
 *   deno run -A scripts/bench_watch_fleet.ts [rounds=10]
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { LAB_HOSTS, SshLab } from "../tests/helpers/sshd.ts";
import { median } from "./timing.ts";

const rounds = Number(Deno.args[0] ?? 10);
const TOKEN = "bench-watch-fleet";

/** Server-sent events of one /watch/events stream, each with the time it arrived. */
class Stream {
  readonly events: { event: string; data: string; at: number }[] = [];
  #waiters: { test: (e: { event: string; data: string }) => boolean; resolve: (at: number) => void }[] = [];
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

  private constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
    void this.#read();
  }

  static async open(url: string, cookie: string): Promise<Stream> {
    const response = await fetch(url, { headers: { cookie } });
    return new Stream(response.body!);
  }

  /** Resolves with the arrival time of the first event (so far or to come) that passes `test`. */
  until(test: (e: { event: string; data: string }) => boolean): Promise<number> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen.at);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await this.#reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const blocks = buffered.split("\n\n");
      buffered = blocks.pop()!;
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!event || data === undefined) continue;
        const entry = { event, data, at: performance.now() };
        this.events.push(entry);
        this.#waiters = this.#waiters.filter((w) => !(w.test(entry) && (w.resolve(entry.at), true)));
      }
    }
  }
}

const lab = await SshLab.start();
await using server = await HttpMcpServer.start({
  token: TOKEN,
  env: { TMUXWRIGHT_HOSTS: LAB_HOSTS.map((h) => `${h}=${h}`).join(","), TMUXWRIGHT_SSH_CONFIG: lab.configFile },
});
try {
  const { client } = await server.client({ authorization: `Bearer ${TOKEN}` });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return JSON.parse((result.content as { text: string }[])[0].text);
  };
  const panes: Record<string, string> = {};
  for (const host of LAB_HOSTS) panes[host] = (await call("create_pane", { host })).pane_id;
  const exchange = await fetch(`${server.url}/watch?token=${TOKEN}`, { redirect: "manual" });
  const cookie = exchange.headers.get("set-cookie")!.split(";")[0];
  await exchange.body?.cancel();

  const phase = async (reachable: string[]) => {
    const first: number[] = [];
    const all: number[] = [];
    const output: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      const stream = await Stream.open(`${server.url}/watch/events`, cookie);
      first.push(await stream.until((e) => e.event === "panes") - started);
      const want = reachable.map((h) => panes[h]);
      all.push(
        await stream.until((e) => e.event === "panes" && want.every((id) => e.data.includes(`"${id}"`))) - started,
      );
      await stream.close();
      // A line written on alpha, to the output event that carries it.
      const follow = await Stream.open(`${server.url}/watch/events?pane=${encodeURIComponent(panes.alpha)}`, cookie);
      await follow.until((e) => e.event === "screen");
      const marker = `fleet-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const sent = performance.now();
      await lab.remoteTmux("alpha", "send-keys", "-t", panes.alpha.split(":")[1], `echo ${marker}`, "Enter");
      output.push(
        await follow.until((e) => e.event === "output" && atob(e.data.split(" ")[1]).includes(marker)) - sent,
      );
      await follow.close();
    }
    return { first: median(first), all: median(all), output: median(output) };
  };
  const up = await phase([...LAB_HOSTS]);
  lab.relay("delta").cut();
  lab.relay("delta").blackhole();
  const down = await phase(LAB_HOSTS.filter((h) => h !== "delta"));
  const f = (n: number) => `${n.toFixed(1)} ms`.padStart(9);
  console.log(`/watch with ${LAB_HOSTS.length} hosts, medians of ${rounds}   every host up   delta black-holed`);
  console.log(`new stream → first panes event            ${f(up.first)}     ${f(down.first)}`);
  console.log(`new stream → every reachable host's pane  ${f(up.all)}     ${f(down.all)}`);
  console.log(`line written on alpha → output event      ${f(up.output)}     ${f(down.output)}`);
  await client.close();
} finally {
  lab.relay("delta").heal();
  await server.stop();
  await lab.close();
}
