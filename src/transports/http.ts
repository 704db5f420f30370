import type { Config } from "../config.ts";
import { type App, createApp } from "../app.ts";
import { createSessionServer } from "../mcp/server.ts";
import { McpServices, taskAfter } from "../mcp/services.ts";
import { modernHttpServing } from "../mcp/http_serving.ts";
import { watchBackend } from "./watch_backend.ts";
import { tmuxOneShot } from "../tmux/oneshot.ts";
import {
  type BridgeBackend,
  DEFAULT_LIMITS,
  type HttpLimits,
  type HttpServerHandle,
  resolveOptions,
  serveHttp,
  StubBackend,
  TmuxBackend,
} from "../http/mod.ts";
import { listenProblem } from "../http/permissions.ts";
import { directoryProblem } from "../safety/sandbox.ts";
import { onStop, SHUTDOWN_BUDGET_MS } from "./shutdown.ts";

/** `tmux -V`, or null when tmux is not installed. */
export async function tmuxVersion(): Promise<string | null> {
  try {
    const out = await tmuxOneShot(["-V"]);
    return out.stdout.trim() || "tmux";
  } catch {
    return null;
  }
}

/** The bridge over the app's tmux server (one control connection), or the in-memory stub. */
export function bridgeBackend(
  app: App | null,
  mode: "tmux" | "stub",
  options: { tmuxVersion: string; socketPath: string | null; commandTimeoutMs: number },
): BridgeBackend {
  if (mode === "stub" || app === null) return new StubBackend();
  return new TmuxBackend({
    tmux: app.tmux,
    output: app.output,
    paster: app.paster,
    instance: app.workspace.instance,
    gate: app.gate,
    ...options,
  });
}

/** Options every HTTP mode shares: the token, origins and listener settings from the environment. */
export interface HttpModeOptions {
  hostname: string;
  port: number;
  tls: { certFile: string; keyFile: string } | null;
  token: string | null;
  allowedOrigins: string[] | undefined;
  allowRemote: boolean;
  mcp: boolean;
  bridge: BridgeBackend;
  limits?: Partial<HttpLimits>;
  /** TMUXWRIGHT_TASK_AFTER_MS: when a long call of a Tasks-aware 2026 client becomes a task. */
  taskAfterMs?: number;
}

/**
 * Serves the app (none for the stub bridge) over HTTP until SIGINT/SIGTERM, then closes MCP sessions and pending bridge
 * waits, and removes the workspace as stdio mode does. Returns the listener once it is up.
 */
export async function serveAppOverHttp(app: App | null, options: HttpModeOptions): Promise<HttpServerHandle> {
  resolveOptions({ ...options }); // operator mistakes (a remote bind without --allow-remote) first
  const problem = listenProblem(options.hostname, options.port, options.tls);
  if (problem) throw new HttpStartError(problem);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let server: HttpServerHandle | null = null;
  // One set per process: the tool table, the key that seals handles and questions, the 2026 callers' workspaces.
  const services: McpServices | null = options.mcp && app
    ? new McpServices(app, {
      taskAfterMs: options.taskAfterMs,
      workspaces: {
        idleTimeoutMs: limits.mcpIdleTimeoutMs,
        room: (): boolean => (services?.handles?.size ?? 0) + (server?.mcpSessions ?? 0) < limits.maxMcpSessions,
        log: (line) => console.error(line),
      },
    })
    : null;
  server = await serveHttp({
    hostname: options.hostname,
    port: options.port,
    tls: options.tls,
    token: options.token,
    allowedOrigins: options.allowedOrigins,
    allowRemote: options.allowRemote,
    bridge: options.bridge,
    createMcpServer: services && app ? () => createSessionServer(app, services) : null,
    modernMcp: services && app ? modernHttpServing(app, services) : null,
    mcpHeld: () => services?.handles?.size ?? 0,
    watch: options.mcp && app ? watchBackend(app) : null,
    checkDirectory: directoryKind,
    limits: options.limits,
  });
  const listening = server;
  onStop(async () => {
    services?.close();
    await Promise.race([listening.shutdown(), new Promise((r) => setTimeout(r, SHUTDOWN_BUDGET_MS / 2))]);
    await options.bridge.close();
    await app?.close();
  });
  app?.workspace.reapStale().catch(() => {});
  return listening;
}

/** `tmuxwright serve --http [HOST:]PORT`: MCP at /mcp plus the bridge, one listener, stdio unused. */
export async function serveHttpMode(config: Readonly<Config>): Promise<void> {
  const app = await createApp(config);
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  const mode = env("TMUX_BRIDGE_MODE")?.trim().toLowerCase() === "stub" ? "stub" : "tmux";
  const origins = env("ALLOWED_ORIGINS")?.split(",").map((o) => o.trim()).filter(Boolean);
  const server = await serveAppOverHttp(app, {
    hostname: config.http!.hostname,
    port: config.http!.port,
    tls: config.tls,
    token: env("TMUX_BRIDGE_TOKEN")?.trim() || null,
    allowedOrigins: origins && origins.length > 0 ? origins : undefined,
    allowRemote: config.allowRemote,
    mcp: true,
    limits: mcpIdleLimit(env("TMUXWRIGHT_MCP_IDLE_MS")),
    taskAfterMs: taskAfter(env("TMUXWRIGHT_TASK_AFTER_MS")),
    bridge: bridgeBackend(app, mode, {
      tmuxVersion: await tmuxVersion() ?? "unknown",
      socketPath: socketPathOf(config),
      commandTimeoutMs: 10_000,
    }),
  });
  console.log(
    `tmuxwright listening on ${server.url} (MCP at ${server.url}/mcp, tmux bridge at ${server.url}/v1/tmux, live view at ${server.url}/watch)`,
  );
}

/** TMUXWRIGHT_MCP_IDLE_MS: how long an MCP session may sit idle before it ends (default 30 min). */
function mcpIdleLimit(value: string | undefined): Partial<HttpLimits> {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 1000 ? { mcpIdleTimeoutMs: ms } : {};
}

function socketPathOf(config: Readonly<Config>): string | null {
  const i = config.socketArgs.indexOf("-S");
  return i >= 0 ? config.socketArgs[i + 1] : null;
}

/** A bridge `cwd` check that needs no read permission: the OS answers when tmux -V starts there. */
async function directoryKind(path: string): Promise<"directory" | "other" | "missing"> {
  const problem = await directoryProblem(path);
  return problem === null ? "directory" : problem === "not a directory" ? "other" : "missing";
}

/** A listener that cannot start as asked; the message says what to change. */
export class HttpStartError extends Error {}
