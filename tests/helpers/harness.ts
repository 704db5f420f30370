import type * as z from "zod";
import { CallToolResultSchema, Client, StdioClientTransport } from "./sdk_client.ts";
import { launchFlags } from "../../src/launcher/mod.ts";
import { adaptOneShot } from "../../src/tmux/oneshot.ts";
import { unvisLines } from "../../src/tmux/printed.ts";

/** A notification schema as the SDK client takes it: an object with a literal `method`. */
type NotificationSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/** What a notification handler received, each with the client's clock when it arrived. */
export type Heard<T> = (T & { at: number })[];

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The exact permission flags of `deno task start`, so tests run the server as users do. The task
 * runs the launcher (src/launcher/tmuxwright.sh), which computes the flags from the arguments and
 * the environment (src/launcher/permissions.ts); the same computation runs here on `env` and
 * `args`. `extraPaths` (a test's temp dir, where its state directory and audit files live) are
 * added to the read and write grants.
 */
export function startPermissions(
  env: Record<string, string> = cleanEnv(),
  extraPaths: string[] = [],
  args: string[] = [],
): string[] {
  return taskPermissions("start", env, extraPaths, args).flags;
}

/**
 * A task's `deno run` flags and the arguments it gives the server: the task must be `sh
 * src/launcher/tmuxwright.sh [ARGS]`, whose flags are those `launchFlags` computes for ARGS.
 */
export function taskPermissions(
  task: string,
  env: Record<string, string> = cleanEnv(),
  extraPaths: string[] = [],
  args: string[] = [],
): { flags: string[]; args: string[] } {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const fixed = LAUNCHER_TASK.exec(config.tasks[task])?.[1];
  if (fixed === undefined) throw new Error(`the ${task} task does not run src/launcher/tmuxwright.sh`);
  const taskArgs = fixed.split(" ").filter((word) => word !== "");
  const flags = launchFlags([...taskArgs, ...args], (name) => env[name]).map((word) =>
    /^--allow-(read|write)=/.test(word) && extraPaths.length > 0 ? `${word},${extraPaths.join(",")}` : word
  );
  return { flags, args: taskArgs };
}

/** Runs a program to its end in exactly `env` (nothing inherited), stdin closed; its exit status and output. */
export async function runProgram(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(command, {
    args,
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/**
 * Runs main.ts once (a CLI command such as doctor or attach, or a start that must fail) as `deno
 * task start` would: the permission flags for its environment (or `flags`), in exactly that
 * environment.
 */
export function runMain(args: string[], env: Record<string, string>, flags: string[] = startPermissions(env)) {
  return runProgram(Deno.execPath(), ["run", ...flags, `${ROOT}main.ts`, ...args], { env });
}

/** A task that starts the server through the launcher: `sh src/launcher/tmuxwright.sh [ARGS]`. */
const LAUNCHER_TASK = /^sh src\/launcher\/tmuxwright\.sh((?: [a-z]+)*)$/;

export interface ServerOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Reuse a socket/state directory from an earlier server (restart tests). */
  dir?: string;
  /** Run this script (e.g. the single-file bundle, with --no-config) instead of main.ts. */
  entry?: string;
  /** Variables removed from the server's environment (as a client that passes only a few would). */
  unset?: string[];
  /** Extra `deno run` flags (benchmarks: `--inspect=127.0.0.1:PORT` to read the server's heap). */
  denoFlags?: string[];
  /** Another checkout's main.ts, run with the same flags (benchmarks: the code before a change). */
  main?: string;
  /** The SDK client to connect (e.g. one that declares elicitation and answers it). */
  client?: Client;
}

const REAL_HOME = Deno.env.get("HOME") ?? "/root";
/**
 * Shells in test panes start from an empty home: a developer's rc files (pyenv, nvm, prompts)
 * would make start-up slow and output unpredictable. Deno keeps its real module cache.
 */
const TEST_HOME = "/tmp/tmuxwright-test-home";
Deno.mkdirSync(TEST_HOME, { recursive: true });

/**
 * The run's own settings that reach every server under test: TMUXWRIGHT_PROCESS_FACTS=ps runs the
 * suite again on the ps backend (.ci/run).
 */
const PASSED_THROUGH = new Set(["TMUXWRIGHT_TMUX_CONFIG", "TMUXWRIGHT_PROCESS_FACTS"]);

/** Environment for a server or tmux under test: never the developer's tmux or rc files. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HOME: TEST_HOME,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${REAL_HOME}/.cache/deno`,
    SHELL: "/bin/bash",
    TMUXWRIGHT_TMUX_CONFIG: "/dev/null",
  };
  delete env.TMUX;
  delete env.TMUX_PANE;
  Object.assign(env, extra); // a test may set TMUX/TMUX_PANE on purpose (self-protection)
  for (const key of Object.keys(env)) {
    if (key.startsWith("TMUXWRIGHT_") && !(key in extra) && !PASSED_THROUGH.has(key)) delete env[key];
  }
  return env;
}

/**
 * A real tmuxwright server over stdio, on its own tmux socket in a short temp dir, driven by the
 * official SDK client. `await using` tears everything down.
 */
export class TestServer {
  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
    readonly dir: string,
    readonly socket: string,
    readonly stderr: string[],
  ) {}

  static async start(options: ServerOptions = {}): Promise<TestServer> {
    const dir = options.dir ?? await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const socket = `${dir}/s`;
    const env = cleanEnv(options.env);
    for (const name of options.unset ?? []) delete env[name];
    const transport = new StdioClientTransport({
      command: "deno",
      args: [
        "run",
        ...(options.entry ? ["--no-config"] : []),
        ...(options.denoFlags ?? []),
        ...startPermissions(env, [dir]),
        options.entry ?? options.main ?? `${ROOT}main.ts`,
        "--socket-path",
        socket,
        "--state-dir",
        `${dir}/state`,
        ...(options.args ?? []),
      ],
      env,
      stderr: "pipe",
    });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
    const client = options.client ?? new Client({ name: "tmuxwright-tests", version: "0.0.0" });
    await client.connect(transport);
    return new TestServer(client, transport, dir, socket, stderr);
  }

  /** Calls a tool that must succeed; returns its structured result. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const { text, isError } = await this.raw(name, args);
    if (isError) throw new Error(`${name} failed: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Calls a tool that must fail; returns the error text. */
  async callError(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const { text, isError } = await this.raw(name, args);
    if (!isError) throw new Error(`${name} was expected to fail but returned: ${text}`);
    return text;
  }

  /** Calls a tool and returns its whole result: every content block, structured content, error flag. */
  async result(name: string, args: Record<string, unknown> = {}) {
    return CallToolResultSchema.parse(
      await this.client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 120_000 }),
    );
  }

  /** Calls a tool and returns its first text block and error flag. */
  async raw(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
    const result = await this.result(name, args);
    const first = result.content[0];
    return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
  }

  /**
   * Records every notification of one kind from now on (the SDK client keeps one handler per
   * method, so a later `listen` for the same method replaces this one).
   */
  listen<S extends NotificationSchema>(schema: S): Heard<z.infer<S>> {
    const heard: Heard<z.infer<S>> = [];
    this.client.setNotificationHandler(schema, (notification) => {
      heard.push({ ...(notification as z.infer<S>), at: performance.now() });
    });
    return heard;
  }

  /** Runs tmux directly against the server's socket (for checks from the outside). */
  async tmux(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return await tmuxAt(this.socket, ...args);
  }

  get pid(): number {
    return this.transport.pid!;
  }

  async close(killTmux = true): Promise<void> {
    await this.client.close().catch(() => {});
    if (killTmux) {
      await this.tmux("kill-server").catch(() => {});
      await Deno.remove(this.dir, { recursive: true }).catch(() => {});
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/**
 * Removes a test's directory once nothing writes there any more: the link scripts of control
 * clients that just ended (src/tmux/host_session_lock.ts) finish within moments of their tmux
 * server, taking and letting go of the session lock beside its socket.
 */
export async function removeEventually(dir: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await Deno.remove(dir, { recursive: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function tmuxAt(socket: string, ...args: string[]) {
  // A tmux 3.3a client was once seen to hang for good after connecting (client and server both
  // idle in poll, the command never run): bound each client so a test fails instead of stalling
  // the suite, and try such a client once more.
  for (let attempt = 1;; attempt++) {
    const out = await runTmuxClient(socket, args);
    if (out || attempt === 2) return out ?? { code: -1, stdout: "", stderr: `tmux ${args[0]} hung twice` };
    console.error(`tmux ${args[0]} hung for ${CLIENT_HANG_MS} ms; trying once more`);
  }
}

const CLIENT_HANG_MS = 15_000;

async function runTmuxClient(socket: string, args: string[]) {
  // Formats read the same on every tmux release (tmux 3.4 and 3.5a escape printed lines), as the server reads them.
  const adapted = adaptOneShot(["-S", socket, ...args]);
  const child = new Deno.Command("tmux", {
    args: adapted.args,
    env: cleanEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), CLIENT_HANG_MS));
  const out = await Promise.race([child.output(), hung]);
  clearTimeout(timer);
  if (!out) {
    try {
      child.kill("SIGKILL");
    } catch { /* it ended meanwhile */ }
    await child.output().catch(() => {});
    return null;
  }
  const dec = new TextDecoder();
  const stdout = dec.decode(out.stdout);
  return { code: out.code, stdout: adapted.unescape ? unvisLines(stdout) : stdout, stderr: dec.decode(out.stderr) };
}

/** Waits for a condition with a deadline (never a fixed sleep); returns the last value seen. */
export async function until<T>(
  probe: () => T | Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let value = await probe();
  while (!ok(value)) {
    if (performance.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
    value = await probe();
  }
  return value;
}

/** The version of the tmux on PATH (`3.3a`, `3.7c`, `next-3.8`): the suite runs on each release (.ci/run). */
export async function tmuxVersion(): Promise<string> {
  const out = await new Deno.Command("tmux", { args: ["-V"], stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).trim().replace(/^tmux /, "");
}
