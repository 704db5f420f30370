import { parseArgs } from "node:util";
import { isAbsolute, join, normalize } from "node:path";
import { type ConfiguredPath, sandboxPathProblem } from "./safety/sandbox.ts";

export const PROFILES = ["core", "agent", "all"] as const;
export type Profile = typeof PROFILES[number];
export const TIERS = ["readonly", "mutating", "destructive"] as const;
export type Tier = typeof TIERS[number];
/** Capability groups for hand-picked tool sets (`--tools sessions,windows`); every tool belongs to one. */
export const TOOL_GROUPS = [
  "panes",
  "input",
  "screen",
  "exec",
  "watch",
  "logs",
  "sessions",
  "windows",
  "buffers",
  "channels",
  "server",
  "settings",
  "display",
] as const;
export type ToolGroup = typeof TOOL_GROUPS[number];
/** What each group holds, for --help and the README. */
export const TOOL_GROUP_HELP: Record<ToolGroup, string> = {
  panes:
    "create, list, split, kill panes; pane info, select, swap, resize, respawn, title, clear, pipe_pane, copy mode",
  input: "send_keys, paste_text",
  screen: "capture_pane, snapshot_pane",
  exec: "execute_command, start_process, stop_process",
  watch: "wait_for_text, watch_pane, pane_state, capture_since, run_in_repl",
  logs: "read_logs, search_panes",
  sessions: "list, create, kill, rename sessions",
  windows: "list, create, kill, rename, select, layout, resize, move windows",
  buffers: "load, paste, show, delete this server's paste buffers",
  channels: "wait_for_channel, signal_channel (tmux wait-for)",
  server: "list_servers, get_server_info, kill_server",
  settings: "show/set options and environment, show_hooks",
  display: "display_message, write_to_display, notify",
};

export interface Config {
  command: "serve" | "attach" | "doctor" | "help" | "version";
  /** `attach WORKSPACE`: a pid or a workspace session name; null for the newest live one. */
  attachTarget: string | null;
  /** `attach --list`: list the workspaces instead of attaching. */
  attachList: boolean;
  /** The profile `--tools` names (the largest one in a comma list), or null when it names only groups. */
  tools: Profile | null;
  /** Groups named in a `--tools` comma list; their tools are listed besides the profile's. */
  toolGroups: readonly ToolGroup[];
  toolPrefix: string;
  safety: Tier;
  /** Arguments that select the tmux server: [], ["-L", name] or ["-S", path]. */
  socketArgs: string[];
  isolated: boolean;
  keep: boolean;
  stateDir: string;
  tmuxConfig: string | null;
  historyLimit: number;
  /** Log rotation: segment size, full segments kept, days logs of gone servers are kept. */
  logMaxBytes: number;
  logKeep: number;
  logRetentionDays: number;
  audit: string | null;
  auditFull: string | null;
  auditPayloads: boolean;
  /** Push trigger events as Claude Code channel notifications. */
  channel: boolean;
  shell: string;
  pid: number;
  /** `--http [HOST:]PORT`: MCP over Streamable HTTP plus the tmux bridge instead of stdio. */
  http: { hostname: string; port: number } | null;
  allowRemote: boolean;
  tls: { certFile: string; keyFile: string } | null;
  /** From TMUX / TMUX_PANE when the server itself runs inside tmux. */
  caller: { socketPath: string; serverPid: number; sessionId: string; paneId: string | null } | null;
}

export class ConfigError extends Error {}

/** Every flag, its environment variable and its help line: the single source for parsing and --help. */
export const FLAGS = {
  tools: {
    env: "TMUXWRIGHT_TOOLS",
    type: "string",
    help: `core | agent | all (default agent), or a comma list of profiles and groups: ${TOOL_GROUPS.join(",")}`,
  },
  "tool-prefix": { env: "TMUXWRIGHT_TOOL_PREFIX", type: "string", help: "prefix for every tool name, e.g. tmux_" },
  safety: { env: "TMUXWRIGHT_SAFETY", type: "string", help: "readonly | mutating | destructive (default mutating)" },
  socket: { env: "TMUXWRIGHT_SOCKET", type: "string", help: "tmux socket name (tmux -L)" },
  "socket-path": { env: "TMUXWRIGHT_SOCKET_PATH", type: "string", help: "tmux socket path (tmux -S)" },
  isolated: {
    env: "TMUXWRIGHT_ISOLATED",
    type: "boolean",
    help: "private tmux server for this process, removed on exit",
  },
  keep: { env: "TMUXWRIGHT_KEEP", type: "boolean", help: "keep the workspace session when the server exits" },
  "state-dir": {
    env: "TMUXWRIGHT_STATE_DIR",
    type: "string",
    help: "logs and state (default $XDG_STATE_HOME/tmuxwright)",
  },
  "tmux-config": {
    env: "TMUXWRIGHT_TMUX_CONFIG",
    type: "string",
    help: "config file for a tmux server this process starts",
  },
  "history-limit": {
    env: "TMUXWRIGHT_HISTORY_LIMIT",
    type: "string",
    help: "scrollback lines per owned pane (default 50000)",
  },
  "log-max-bytes": {
    env: "TMUXWRIGHT_LOG_MAX_BYTES",
    type: "string",
    help: "rotate a pane's log file at this size, e.g. 64M (default 64M)",
  },
  "log-keep": { env: "TMUXWRIGHT_LOG_KEEP", type: "string", help: "rotated log files kept per pane (default 3)" },
  "log-retention-days": {
    env: "TMUXWRIGHT_LOG_RETENTION_DAYS",
    type: "string",
    help: "days a log is kept after its last write (default 7)",
  },
  http: {
    env: "TMUXWRIGHT_HTTP",
    type: "string",
    help: "serve MCP at /mcp and the tmux bridge at /v1/tmux on [HOST:]PORT instead of stdio",
  },
  "allow-remote": {
    env: "TMUXWRIGHT_ALLOW_REMOTE",
    type: "boolean",
    help: "with --http: accept non-loopback clients (needs TMUX_BRIDGE_TOKEN)",
  },
  "tls-cert": {
    env: "TMUXWRIGHT_TLS_CERT",
    type: "string",
    help: "with --http: serve HTTPS with this PEM certificate",
  },
  "tls-key": { env: "TMUXWRIGHT_TLS_KEY", type: "string", help: "with --http: the certificate's PEM private key" },
  audit: { env: "TMUX_DEBUG_AUDIT", type: "string", help: "append one JSON line per tool call to FILE" },
  "audit-full": { env: "TMUX_DEBUG_AUDIT_FULL", type: "string", help: "also write every capture to DIR" },
  "audit-payloads": {
    env: "TMUXWRIGHT_AUDIT_PAYLOADS",
    type: "boolean",
    help: "log payloads in clear instead of hashes",
  },
  channel: {
    env: "TMUXWRIGHT_CHANNEL",
    type: "boolean",
    help: "push watch_pane and start_process events to Claude Code (notifications/claude/channel)",
  },
} as const;

type FlagName = keyof typeof FLAGS;
type FlagValues = { [K in FlagName]?: string | boolean };

/** A variable's value; an empty one counts as unset (as XDG_STATE_HOME="" means the default). */
function envValue(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined; // env access not granted for this variable
  }
}

function truthy(value: string | boolean | undefined): boolean {
  return value === true || (typeof value === "string" && /^(1|true|yes|on)$/i.test(value));
}

function oneOf<T extends string>(what: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`Invalid ${what} "${value}": expected one of ${allowed.join(", ")}`);
}

/** Parses argv and the environment into a frozen Config; operator mistakes fail here, at start-up. */
export function loadConfig(argv: readonly string[]): Readonly<Config> {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, flag]) => [name, { type: flag.type }]),
  ) as Record<FlagName, { type: "string" | "boolean" }>;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        ...options,
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
        list: { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}; run tmuxwright --help for the list of flags`);
  }
  const values: FlagValues = {};
  for (const [name, flag] of Object.entries(FLAGS) as [FlagName, typeof FLAGS[FlagName]][]) {
    const fromFlag = (parsed.values as Record<string, string | boolean | undefined>)[name];
    values[name] = fromFlag ?? envValue(flag.env);
  }

  const positional = parsed.positionals[0] ?? "serve";
  const maxPositionals = positional === "attach" ? 2 : 1;
  if (parsed.positionals.length > maxPositionals) {
    throw new ConfigError(`Unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  const command = parsed.values.help
    ? "help"
    : parsed.values.version
    ? "version"
    : oneOf("command", positional, ["serve", "attach", "doctor"] as const);
  const attachTarget = command === "attach" ? parsed.positionals[1] ?? null : null;
  if (attachTarget !== null && !/^(tmuxwright-)?\d{1,10}(-\d{1,3})?$/.test(attachTarget)) {
    throw new ConfigError(`Invalid workspace "${attachTarget}": give a server pid or a name like tmuxwright-1234`);
  }
  const attachList = parsed.values.list === true;
  if (attachList && command !== "attach") throw new ConfigError("--list goes with attach: tmuxwright attach --list");

  const socket = values.socket as string | undefined;
  const socketPath = values["socket-path"] as string | undefined;
  const isolated = truthy(values.isolated);
  if ([socket, socketPath, isolated || undefined].filter(Boolean).length > 1) {
    throw new ConfigError("Choose one of --socket, --socket-path and --isolated");
  }
  if (socket !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(socket)) {
    throw new ConfigError(`Invalid --socket "${socket}": use letters, digits, '_', '.', '-'`);
  }
  if (socketPath !== undefined && !isAbsolute(socketPath)) {
    throw new ConfigError(`Invalid --socket-path "${socketPath}": must be an absolute path`);
  }
  const pid = Deno.pid;
  const socketArgs = isolated
    ? ["-L", `tmuxwright-${pid}`]
    : socket
    ? ["-L", socket]
    : socketPath
    ? ["-S", socketPath]
    : [];

  const stateDir = normalize(
    (values["state-dir"] as string | undefined) ??
      join(envValue("XDG_STATE_HOME") ?? join(envValue("HOME") ?? "/tmp", ".local", "state"), "tmuxwright"),
  );
  if (!isAbsolute(stateDir)) throw new ConfigError(`Invalid state directory "${stateDir}": must be an absolute path`);
  // The log path is embedded in a pipe-pane shell command that tmux also format-expands.
  if (!/^[A-Za-z0-9_\/.+@:, -]+$/.test(stateDir)) {
    throw new ConfigError(`Invalid state directory "${stateDir}": use letters, digits, and _ / . + @ : , - or space`);
  }

  const historyLimit = Number(values["history-limit"] ?? 50000);
  if (!Number.isInteger(historyLimit) || historyLimit < 100 || historyLimit > 1_000_000) {
    throw new ConfigError(`Invalid --history-limit "${values["history-limit"]}": an integer from 100 to 1000000`);
  }

  const logMaxBytes = parseSize(values["log-max-bytes"] as string | undefined ?? "64M");
  if (logMaxBytes === null || logMaxBytes < 4096 || logMaxBytes > 2 ** 40) {
    throw new ConfigError(`Invalid --log-max-bytes "${values["log-max-bytes"]}": a size from 4K to 1T, e.g. 64M`);
  }
  const logKeep = Number(values["log-keep"] ?? 3);
  if (!Number.isInteger(logKeep) || logKeep < 1 || logKeep > 1000) {
    throw new ConfigError(`Invalid --log-keep "${values["log-keep"]}": an integer from 1 to 1000`);
  }
  const logRetentionDays = Number(values["log-retention-days"] ?? 7);
  if (!Number.isFinite(logRetentionDays) || logRetentionDays < 0 || logRetentionDays > 36500) {
    throw new ConfigError(`Invalid --log-retention-days "${values["log-retention-days"]}": a number from 0 to 36500`);
  }

  const absolute = (what: string, value: string | boolean | undefined) => {
    if (value === undefined || value === false || value === "") return null;
    if (typeof value !== "string" || !isAbsolute(value)) {
      throw new ConfigError(`Invalid ${what} "${value}": must be an absolute path`);
    }
    return normalize(value);
  };

  const selection = parseToolSelection((values.tools as string | undefined) ?? "agent");
  const config: Config = {
    command,
    attachTarget,
    attachList,
    tools: selection.profile,
    toolGroups: selection.groups,
    toolPrefix: validPrefix((values["tool-prefix"] as string | undefined) ?? ""),
    safety: oneOf("--safety", (values.safety as string | undefined) ?? "mutating", TIERS),
    socketArgs,
    isolated,
    keep: truthy(values.keep),
    stateDir,
    tmuxConfig: absolute("--tmux-config", values["tmux-config"]),
    historyLimit,
    logMaxBytes,
    logKeep,
    logRetentionDays,
    audit: absolute("--audit", values.audit),
    auditFull: absolute("--audit-full", values["audit-full"]),
    auditPayloads: truthy(values["audit-payloads"]),
    channel: truthy(values.channel),
    http: parseListen(values.http as string | undefined),
    allowRemote: truthy(values["allow-remote"]),
    tls: tlsFiles(absolute("--tls-cert", values["tls-cert"]), absolute("--tls-key", values["tls-key"])),
    shell: envValue("SHELL") || "/bin/sh",
    pid,
    caller: parseCaller(envValue("TMUX"), envValue("TMUX_PANE")),
  };
  // Paths outside the Deno permissions fail here, naming the flag to add, not at the first tool call.
  const sandboxProblem = command === "serve" ? sandboxPathProblem(writtenPaths(config)) : null;
  if (sandboxProblem) throw new ConfigError(sandboxProblem);
  return Object.freeze(config);
}

/** Paths this configuration writes, each with the flag that chose it. */
function writtenPaths(config: Readonly<Config>): ConfiguredPath[] {
  return [
    { flag: "--state-dir", path: config.stateDir, read: true },
    ...(config.audit ? [{ flag: "--audit", path: config.audit, read: false }] : []),
    ...(config.auditFull ? [{ flag: "--audit-full", path: config.auditFull, read: false }] : []),
  ];
}

/**
 * `--tools`: one profile (`core`, `agent`, `all`) or a comma list of profiles and groups, e.g.
 * `agent,sessions,windows`. A list keeps the largest profile it names plus every named group.
 */
export function parseToolSelection(value: string): { profile: Profile | null; groups: ToolGroup[] } {
  const items = value.split(",").map((item) => item.trim()).filter((item) => item !== "");
  const unknown = items.filter((item) => ![...PROFILES, ...TOOL_GROUPS].includes(item as never));
  if (items.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      `Invalid --tools "${value}": expected one of ${PROFILES.join(", ")}, or a comma list of those and the groups ` +
        TOOL_GROUPS.join(", "),
    );
  }
  const profiles = PROFILES.filter((p) => items.includes(p));
  return {
    profile: profiles.length > 0 ? profiles[profiles.length - 1] : null,
    groups: TOOL_GROUPS.filter((g) => items.includes(g)),
  };
}

/** `--http` value: `PORT`, `HOST:PORT` or `[V6]:PORT`; the host defaults to 127.0.0.1. */
export function parseListen(value: string | undefined): Config["http"] {
  if (value === undefined || value === "") return null;
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new ConfigError(`Invalid --http "${value}": expected [HOST:]PORT, e.g. 8765 or 127.0.0.1:8765`);
  }
  return { hostname: match[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1", port };
}

function tlsFiles(certFile: string | null, keyFile: string | null): Config["tls"] {
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError("Give both --tls-cert and --tls-key");
  return certFile && keyFile ? { certFile, keyFile } : null;
}

/** "65536", "64K", "64M", "1G" (binary units) → bytes; null when malformed. */
export function parseSize(text: string): number | null {
  const match = /^(\d{1,13})([KMGT]?)i?B?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[match[2].toUpperCase()]!;
  return Number(match[1]) * unit;
}

function validPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_.-]{0,32}$/.test(prefix)) {
    throw new ConfigError(`Invalid --tool-prefix "${prefix}": up to 32 letters, digits, '_', '.', '-'`);
  }
  return prefix;
}

/** `TMUX` is "socket_path,server_pid,session_index"; TMUX_PANE is "%N". */
export function parseCaller(tmux: string | undefined, pane: string | undefined): Config["caller"] {
  if (!tmux) return null;
  const match = /^(.*),(\d+),(\d+)$/.exec(tmux);
  if (!match) return null;
  return {
    socketPath: match[1],
    serverPid: Number(match[2]),
    sessionId: `$${match[3]}`,
    paneId: pane && /^%\d+$/.test(pane) ? pane : null,
  };
}

export function helpText(): string {
  const lines = [
    "tmuxwright: an MCP server that gives AI agents tmux",
    "",
    "usage: tmuxwright [serve] [flags]   serve MCP over stdio (default); with --http [HOST:]PORT over HTTP",
    "       tmuxwright bridge [flags]    the tmux bridge v1 for browser add-ins (env: HOST, PORT, TMUX_BRIDGE_*;",
    "                                    flags: --https, --http, --tls-cert, --tls-key, --allow-remote; see docs/http.md)",
    "       tmuxwright attach [WORKSPACE] [flags]",
    "                                    watch an agent's workspace live (read-only): the newest live one,",
    "                                    or WORKSPACE (a server pid or tmuxwright-<pid>); --list lists them",
    "       tmuxwright doctor [flags]    check tmux, socket and state directory; print client config",
    "",
    "flags (every flag has an environment variable; flags win):",
  ];
  for (const [name, flag] of Object.entries(FLAGS)) {
    lines.push(`  --${name.padEnd(16)} ${flag.help} [${flag.env}]`);
  }
  lines.push("  --help, -h         this help", "  --version, -V      print the version", "", "tool groups (--tools):");
  for (const [group, help] of Object.entries(TOOL_GROUP_HELP)) lines.push(`  ${group.padEnd(10)} ${help}`);
  return lines.join("\n");
}
