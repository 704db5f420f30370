/**
 * The servers under stress, all on one tmux server (a private socket) and one state directory: one
 * `--http` server (restartable on the same port and state after a SIGKILL) and stdio servers started
 * per session; with the OpenSSH lab, both reach host `alpha`.
 */
import { cleanEnv, startPermissions, TestServer, tmuxAt } from "../../tests/helpers/harness.ts";
import type { SshLab } from "../../tests/helpers/sshd.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** The servers' lease on the lab host: a dead server's panes there go when it has passed. */
export const HOST_LEASE_SEC = 20;

export class Fleet {
  #http: Deno.ChildProcess | null = null;
  #ready: Promise<void> = Promise.resolve();
  readonly stderr: string[] = [];
  /** Bumped at every HTTP server start: sessions of an earlier generation are gone. */
  generation = 0;
  readonly port = freePort();

  constructor(
    readonly dir: string,
    readonly lab: SshLab | null,
    readonly idleMs: number,
    /** The shells' home (their start-up files) and the user's shell: `--home` heavy or root, else the test home. */
    readonly shell: { home?: string; program?: string } = {},
    /** The MCP era of the HTTP sessions: 2026-07-28 has no sessions, only workspaces named by a handle. */
    readonly era: "2025" | "2026" = "2025",
  ) {}

  get socket(): string {
    return `${this.dir}/s`;
  }

  get mcpUrl(): URL {
    return new URL(`http://127.0.0.1:${this.port}/mcp`);
  }

  get httpPid(): number | null {
    return this.#http?.pid ?? null;
  }

  /** Resolves when the HTTP server listens (again). */
  ready(): Promise<void> {
    return this.#ready;
  }

  env(): Record<string, string> {
    const extra: Record<string, string> = { TMUXWRIGHT_MCP_IDLE_MS: String(this.idleMs) };
    if (this.shell.home) extra.HOME = this.shell.home;
    if (this.shell.program) extra.SHELL = this.shell.program;
    if (this.lab) {
      extra.TMUXWRIGHT_HOSTS = "alpha=alpha";
      extra.TMUXWRIGHT_SSH_CONFIG = this.lab.configFile;
      extra.TMUXWRIGHT_HOST_LEASE = String(HOST_LEASE_SEC);
    }
    return cleanEnv(extra);
  }

  args(): string[] {
    return ["--socket-path", this.socket, "--state-dir", `${this.dir}/state`, "--tools", "all"];
  }

  startHttp(denoFlags: string[] = []): Promise<void> {
    const env = this.env();
    this.generation++;
    const child = new Deno.Command("deno", {
      args: [
        "run",
        ...denoFlags,
        ...startPermissions(env, [this.dir]),
        MAIN,
        ...this.args(),
        "--http",
        `127.0.0.1:${this.port}`,
      ],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#http = child;
    const lines = this.stderr;
    // All of it in the state directory too (kept when the run fails), each line with the time.
    const log = `${this.dir}/http-server.log`;
    child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (chunk) => {
          const fresh = chunk.split("\n").filter(Boolean);
          lines.push(...fresh);
          if (lines.length > 200) lines.splice(0, lines.length - 200);
          const at = new Date().toISOString().slice(11, 23);
          Deno.writeTextFileSync(log, fresh.map((line) => `${at} ${line}\n`).join(""), { append: true });
        },
      }),
    ).catch(() => {});
    this.#ready = (async () => {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("\n")) {
        const next = await reader.read();
        if (next.done) throw new Error(`the HTTP server exited before listening: ${lines.slice(-5).join(" | ")}`);
        text += next.value;
      }
      (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
    })();
    return this.#ready;
  }

  /** SIGKILL (nothing of its own shutdown runs), then a new server on the same port, socket and state. */
  async crashAndRestart(denoFlags: string[] = []): Promise<void> {
    const child = this.#http;
    if (child) {
      child.kill("SIGKILL");
      await child.status;
    }
    await this.startHttp(denoFlags);
  }

  async stopHttp(): Promise<void> {
    const child = this.#http;
    if (!child) return;
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await child.status;
    clearTimeout(timer);
    this.#http = null;
  }

  /** Inspector ports of the stdio servers (by pid): a server that stops answering shows where it is. */
  readonly inspectors = new Map<number, number>();

  /** A stdio server of its own for one session (the usual MCP client's way), on the same tmux server. */
  async stdio(): Promise<TestServer> {
    const env = this.env();
    const port = freePort();
    const server = await TestServer.start({
      dir: this.dir,
      env,
      args: ["--tools", "all"],
      denoFlags: [`--inspect=127.0.0.1:${port}`],
    });
    this.inspectors.set(server.pid, port);
    return server;
  }

  tmux(...args: string[]) {
    return tmuxAt(this.socket, ...args);
  }

  async killTmux(): Promise<void> {
    await this.tmux("kill-server");
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
