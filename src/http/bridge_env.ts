import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { DEFAULT_ALLOWED_ORIGINS } from "./options.ts";
import { normalizeOrigin } from "./net.ts";

/** `tmuxwright bridge` settings, from the old bridge's environment and flags. */
export interface BridgeSettings {
  hostname: string;
  port: number;
  tls: { certFile: string; keyFile: string } | null;
  mode: "tmux" | "stub";
  token: string | null;
  allowedOrigins: string[];
  socketPath: string;
  /** The default socket lives in a directory the bridge creates private (0700) at start. */
  defaultSocket: boolean;
  commandTimeoutMs: number;
  allowRemote: boolean;
  /** Values the old bridge tolerated and we correct; printed on stderr at start. */
  warnings: string[];
}

/** What the environment cannot tell: where defaults live. */
export interface BridgeDefaults {
  stateDir: string;
  tmpDir: string;
  user: string;
  cwd: string;
}

export class BridgeEnvError extends Error {}

export const BRIDGE_FLAGS = {
  https: { type: "boolean", help: "serve HTTPS (also HTTPS=1); host defaults to localhost" },
  http: { type: "boolean", help: "serve plain HTTP even if HTTPS=1 is set" },
  "tls-cert": { type: "string", help: "certificate PEM file [TMUXWRIGHT_TLS_CERT] (default STATE_DIR/tls/cert.pem)" },
  "tls-key": { type: "string", help: "private key PEM file [TMUXWRIGHT_TLS_KEY] (default STATE_DIR/tls/key.pem)" },
  "allow-remote": {
    type: "boolean",
    help: "accept non-loopback clients (needs TMUX_BRIDGE_TOKEN) [TMUXWRIGHT_ALLOW_REMOTE]",
  },
} as const;

const DEFAULT_PORT = 3341;
const DEFAULT_TIMEOUT_MS = 10_000;
/** tmux refuses socket paths longer than sockaddr_un allows (about 104 bytes). */
const MAX_SOCKET_PATH = 100;

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());

/** Parses argv (after `bridge`) and the environment; operator mistakes throw BridgeEnvError. */
export function parseBridgeEnv(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaults: BridgeDefaults,
): BridgeSettings {
  let flags;
  try {
    flags = parseArgs({ args: [...argv], options: BRIDGE_FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new BridgeEnvError(`${(error as Error).message}; run tmuxwright --help for the bridge's flags`);
  }
  const warnings: string[] = [];
  const certFlag = flags["tls-cert"] ?? (env.TMUXWRIGHT_TLS_CERT || undefined);
  const keyFlag = flags["tls-key"] ?? (env.TMUXWRIGHT_TLS_KEY || undefined);
  if (flags.https && flags.http) throw new BridgeEnvError("Choose one of --https and --http");
  const https = !flags.http && (flags.https === true || truthy(env.HTTPS) || certFlag !== undefined);
  if (!https && (certFlag || keyFlag)) throw new BridgeEnvError("--tls-cert and --tls-key need HTTPS; drop --http");
  if ((certFlag === undefined) !== (keyFlag === undefined)) {
    throw new BridgeEnvError("Give both --tls-cert and --tls-key (or TMUXWRIGHT_TLS_CERT and TMUXWRIGHT_TLS_KEY)");
  }
  const tls = https
    ? {
      certFile: resolve(defaults.cwd, certFlag ?? join(defaults.stateDir, "tls", "cert.pem")),
      keyFile: resolve(defaults.cwd, keyFlag ?? join(defaults.stateDir, "tls", "key.pem")),
    }
    : null;

  const hostname = env.HOST?.trim() || (https ? "localhost" : "127.0.0.1");
  const portText = env.PORT?.trim() || String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) {
    throw new BridgeEnvError(`Invalid PORT "${env.PORT}": an integer from 0 to 65535`);
  }

  const modeText = (env.TMUX_BRIDGE_MODE ?? "").trim().toLowerCase() || "tmux";
  if (modeText !== "tmux" && modeText !== "stub") {
    throw new BridgeEnvError(`Invalid TMUX_BRIDGE_MODE "${env.TMUX_BRIDGE_MODE}": use "tmux" or "stub"`);
  }

  const allowedOrigins: string[] = [];
  for (const entry of (env.ALLOWED_ORIGINS ?? "").split(",").map((v) => v.trim()).filter(Boolean)) {
    const origin = normalizeOrigin(entry);
    if (origin === null) warnings.push(`ignoring ALLOWED_ORIGINS entry "${entry}": not scheme://host[:port]`);
    else if (!allowedOrigins.includes(origin)) allowedOrigins.push(origin);
  }
  if (allowedOrigins.length === 0) allowedOrigins.push(...DEFAULT_ALLOWED_ORIGINS);

  const socketDir = env.TMUX_BRIDGE_SOCKET_DIR?.trim();
  const socketPathText = env.TMUX_BRIDGE_SOCKET_PATH?.trim();
  const defaultSocket = !socketPathText;
  const socketPath = socketPathText ? resolve(defaults.cwd, socketPathText) : join(
    socketDir ? resolve(defaults.cwd, socketDir) : join(defaults.tmpDir, `tmuxwright-bridge-${defaults.user}`),
    "tmux.sock",
  );
  if (new TextEncoder().encode(socketPath).length > MAX_SOCKET_PATH) {
    throw new BridgeEnvError(
      `Invalid TMUX_BRIDGE_SOCKET_PATH "${socketPath}": longer than ${MAX_SOCKET_PATH} bytes, which tmux cannot bind`,
    );
  }

  return {
    hostname,
    port,
    tls,
    mode: modeText,
    token: env.TMUX_BRIDGE_TOKEN?.trim() || null,
    allowedOrigins,
    socketPath,
    defaultSocket,
    commandTimeoutMs: commandTimeout(env.TMUX_BRIDGE_COMMAND_TIMEOUT_MS, warnings),
    allowRemote: flags["allow-remote"] === true || truthy(env.TMUXWRIGHT_ALLOW_REMOTE),
    warnings,
  };
}

/** As the old bridge: malformed or under 500 ms means the default, over 120 s is capped; we say so. */
function commandTimeout(text: string | undefined, warnings: string[]): number {
  if (text === undefined || text.trim() === "") return DEFAULT_TIMEOUT_MS;
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 500) {
    warnings.push(
      `TMUX_BRIDGE_COMMAND_TIMEOUT_MS "${text}" is not an integer of at least 500; using ${DEFAULT_TIMEOUT_MS}`,
    );
    return DEFAULT_TIMEOUT_MS;
  }
  if (value > 120_000) {
    warnings.push(`TMUX_BRIDGE_COMMAND_TIMEOUT_MS "${text}" is over 120000; using 120000`);
    return 120_000;
  }
  return value;
}
