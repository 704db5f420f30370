/**
 * A bare `tmux -C` client on its own session with a `bash --norc` pane: what typing a command and
 * seeing the next prompt costs with nothing but tmux in between (the floor for bench_exec.ts).
 */
import { unescapeOutput } from "../src/tmux/control_parser.ts";

const PROMPT = "FLOOR-PROMPT>";

export class BareClient {
  #pending = "";
  #waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly child: Deno.ChildProcess,
    private readonly writer: WritableStreamDefaultWriter<Uint8Array>,
    private readonly socket: string,
    private readonly session: string,
  ) {
    void this.#read();
  }

  static async open(socket: string): Promise<BareClient> {
    const session = `floor${Deno.pid}`;
    const tmux = (...args: string[]) => new Deno.Command("tmux", { args: ["-S", socket, ...args] }).output();
    await tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "30", "env PS1=FLOOR-PROMPT'>' bash --norc");
    const child = new Deno.Command("tmux", {
      args: ["-S", socket, "-C", "attach", "-t", session],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const client = new BareClient(child, child.stdin.getWriter(), socket, session);
    await client.run("true"); // a prompt drawn while attached
    return client;
  }

  /** ms from typing `command` to its next prompt arriving as %output. */
  async run(command: string): Promise<number> {
    this.#pending = "";
    let started = 0;
    // The prompt after the command's echo: a prompt drawn late for an earlier line does not count.
    const echo = `${command}\r\n`;
    await this.#until((text) => text.includes(PROMPT, text.indexOf(echo) + 1 || text.length), () => {
      started = performance.now();
      void this.writer.write(new TextEncoder().encode(`send-keys -t ${this.session} '${command}' Enter\n`));
    });
    return performance.now() - started;
  }

  /** bash's own time for `command` in that pane, ms ($EPOCHREALTIME around it). */
  async shellTime(command: string): Promise<number> {
    this.#pending = "";
    const line = `s=$EPOCHREALTIME; ${command}; e=$EPOCHREALTIME; echo T=$(( (\${e/.}-\${s/.}) ))=T`;
    let match: RegExpExecArray | null = null;
    await this.#until((text) => (match = /T=(\d+)=T/.exec(text)) !== null, () => {
      void this.writer.write(new TextEncoder().encode(`send-keys -t ${this.session} '${line}' Enter\n`));
    });
    await this.#until((text) => text.slice(text.indexOf("=T")).includes(PROMPT), () => {});
    return Number(match![1]) / 1000;
  }

  #until(test: (text: string) => boolean, start: () => void): Promise<void> {
    start();
    if (test(this.#pending)) return Promise.resolve(); // already arrived
    return new Promise<void>((resolve) => this.#waiters.push({ test, resolve }));
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const output = new TextDecoder(); // the pane's bytes, a stream of their own
    let buffered = "";
    for await (const chunk of this.child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("%output ")) continue;
        const escaped = encoder.encode(line.slice(line.indexOf(" ", 8) + 1));
        this.#pending += output.decode(unescapeOutput(escaped), { stream: true });
        this.#waiters = this.#waiters.filter((w) => !(w.test(this.#pending) && (w.resolve(), true)));
      }
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await new Deno.Command("tmux", { args: ["-S", this.socket, "kill-session", "-t", this.session] }).output();
    await this.writer.close().catch(() => {});
    await this.child.status;
  }
}
