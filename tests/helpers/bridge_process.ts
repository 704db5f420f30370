import { cleanEnv, tmuxAt } from "./harness.ts";
import { taskPermissions } from "./http.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * `tmuxwright bridge` as users run it (`deno task bridge`'s permissions), on an ephemeral port and
 * a tmux socket in a temp dir. `await using` sends SIGTERM and removes the tmux server.
 */
export class BridgeProcess {
  private constructor(
    readonly url: string,
    readonly banner: string[],
    readonly dir: string,
    readonly child: Deno.ChildProcess,
    readonly stderr: string[],
  ) {}

  get socket(): string {
    return `${this.dir}/s`;
  }

  /** `denoFlags`: extra `deno run` flags (benchmarks: `--inspect=127.0.0.1:PORT`). */
  static async start(env: Record<string, string> = {}, denoFlags: string[] = []): Promise<BridgeProcess> {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const fullEnv = cleanEnv({ PORT: "0", TMUX_BRIDGE_SOCKET_PATH: `${dir}/s`, ...env });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...denoFlags, ...taskPermissions("bridge", fullEnv, [dir]), MAIN, "bridge"],
      env: fullEnv,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr: string[] = [];
    child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void stderr.push(chunk) }),
    ).catch(() => {});
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/\n(auth|warning):.*\n/.test(text)) {
      const next = await reader.read();
      if (next.done) {
        await child.status;
        throw new Error(`bridge exited before listening: ${stderr.join("")}`);
      }
      text += next.value;
    }
    (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
    const banner = text.trim().split("\n");
    const url = /listening on (\S+)/.exec(banner[0])![1];
    return new BridgeProcess(url, banner, dir, child, stderr);
  }

  async call(body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.url}/v1/tmux`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  tmux(...args: string[]) {
    return tmuxAt(this.socket, ...args);
  }

  async stop(): Promise<Deno.CommandStatus> {
    try {
      this.child.kill("SIGTERM");
    } catch { /* already gone */ }
    return await this.child.status;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
    await this.tmux("kill-server").catch(() => {});
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
