import { dirname } from "node:path";
import { ConfigError, loadConfig } from "../config.ts";
import { createApp } from "../app.ts";
import { BridgeEnvError, parseBridgeEnv } from "../http/bridge_env.ts";
import { bridgeBanner } from "../http/bridge_banner.ts";
import { ensurePrivateDir } from "../http/private_dir.ts";
import { HttpConfigError } from "../http/mod.ts";
import { bridgeBackend, HttpStartError, serveAppOverHttp, tmuxVersion } from "./http.ts";

/** The old bridge's variables, read once (each needs its --allow-env grant). */
const ENV_NAMES = [
  "HOST",
  "PORT",
  "HTTPS",
  "TMUX_BRIDGE_MODE",
  "TMUX_BRIDGE_TOKEN",
  "ALLOWED_ORIGINS",
  "TMUX_BRIDGE_SOCKET_PATH",
  "TMUX_BRIDGE_SOCKET_DIR",
  "TMUX_BRIDGE_COMMAND_TIMEOUT_MS",
  "TMUXWRIGHT_TLS_CERT",
  "TMUXWRIGHT_TLS_KEY",
  "TMUXWRIGHT_ALLOW_REMOTE",
  "TMUXWRIGHT_TMUX_CONFIG",
  "USER",
];

function readEnv(): Record<string, string | undefined> {
  return Object.fromEntries(ENV_NAMES.map((name) => {
    try {
      return [name, Deno.env.get(name)];
    } catch {
      return [name, undefined]; // not granted: as if unset
    }
  }));
}

function cwd(): string {
  try {
    return Deno.cwd();
  } catch {
    return "/";
  }
}

/**
 * `tmuxwright bridge`: the drop-in tmux bridge v1, configured by the old bridge's environment.
 * Prints the ready banner on stdout; returns an exit code on a start-up failure, null when serving.
 */
export async function runBridge(argv: readonly string[]): Promise<number | null> {
  const env = readEnv();
  try {
    const stateDir = loadConfig([]).stateDir;
    const settings = parseBridgeEnv(argv, env, { stateDir, tmpDir: "/tmp", user: env.USER || "user", cwd: cwd() });
    for (const warning of settings.warnings) console.error(`tmuxwright: warning: ${warning}`);
    let app = null;
    let version = "none";
    if (settings.mode === "tmux") {
      const found = await tmuxVersion();
      if (found === null) {
        console.error(
          "tmuxwright: tmux is not installed or not on PATH; install tmux 3.2 or newer, " +
            "or run the simulated bridge with TMUX_BRIDGE_MODE=stub",
        );
        return 1;
      }
      version = found;
      if (settings.defaultSocket) await privateSocketDir(dirname(settings.socketPath));
      const tmuxConfig = env.TMUXWRIGHT_TMUX_CONFIG ? [] : ["--tmux-config", "/dev/null"];
      app = await createApp(loadConfig(["--socket-path", settings.socketPath, ...tmuxConfig]));
    }
    const server = await serveAppOverHttp(app, {
      hostname: settings.hostname,
      port: settings.port,
      tls: settings.tls,
      token: settings.token,
      allowedOrigins: settings.allowedOrigins,
      allowRemote: settings.allowRemote,
      mcp: false,
      bridge: bridgeBackend(app, settings.mode, {
        tmuxVersion: version,
        socketPath: settings.socketPath,
        commandTimeoutMs: settings.commandTimeoutMs,
      }),
    });
    console.log(bridgeBanner(settings, server.port).join("\n"));
    return null;
  } catch (error) {
    if (
      error instanceof BridgeEnvError || error instanceof ConfigError || error instanceof HttpConfigError ||
      error instanceof HttpStartError
    ) {
      console.error(`tmuxwright: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

async function privateSocketDir(dir: string): Promise<void> {
  try {
    await ensurePrivateDir(dir);
  } catch (error) {
    throw new HttpStartError(
      `Cannot prepare the tmux socket directory "${dir}": ${(error as Error).message}; ` +
        `set TMUX_BRIDGE_SOCKET_PATH, or add --allow-read=${dir} --allow-write=${dir} to the deno run flags`,
    );
  }
}
