import { parseArgs } from "node:util";
import { isAbsolute, join, normalize } from "node:path";
import { type ConfiguredPath, sandboxPathProblem } from "./safety/sandbox.ts";
import { ConfigError } from "./config/errors.ts";
import { type FlagName, FLAGS } from "./config/flags.ts";
import { parseToolSelection, type Profile, type Tier, TIERS, type ToolGroup } from "./config/tools.ts";
import {
  type Caller,
  type Listen,
  type PaneEnvEntry,
  parseCaller,
  parseListen,
  parsePaneEnv,
  parseSize,
  type TlsFiles,
  tlsFiles,
  validPrefix,
} from "./config/values.ts";
import { type HostEntry, linkPermissionProblem, parseHostFlags, parseSshConfig } from "./config/hosts.ts";
import { loadPolicy, type Policy, PolicyFileError } from "./policy/mod.ts";

/** The configuration's parts live in `config/`; this file is their door. */
export { ConfigError } from "./config/errors.ts";
export { FLAGS, helpText } from "./config/flags.ts";
export {
  parseToolSelection,
  type Profile,
  PROFILES,
  type Tier,
  TIERS,
  TOOL_GROUP_HELP,
  TOOL_GROUPS,
  type ToolGroup,
} from "./config/tools.ts";
export { HOST_NAME, type HostEntry, LOCAL_HOST } from "./config/hosts.ts";
export {
  type Caller,
  type Listen,
  type PaneEnvEntry,
  parseCaller,
  parseListen,
  parseSize,
  type TlsFiles,
} from "./config/values.ts";

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
  /** Over HTTP, every MCP session acts as the process owner instead of an owner of its own. */
  sharedWorkspace: boolean;
  stateDir: string;
  tmuxConfig: string | null;
  /** Where process facts come from; null: /proc where the host has it, else ps. */
  processFacts: "proc" | "ps" | null;
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
  http: Listen | null;
  allowRemote: boolean;
  tls: TlsFiles | null;
  /** `--host NAME=DESTINATION`: the remote hosts agents may use (never `local`, the machine itself). */
  hosts: readonly HostEntry[];
  /** `--ssh-config FILE`: given to ssh as `-F FILE`; null: the user's own ssh configuration. */
  sshConfig: string | null;
  /** `--host-lease`: how long (s) a remote host keeps this server's panes while no link of it is attached. */
  hostLeaseSec: number;
  /** How often a running server looks again for workspaces whose server is gone (--reap-every). */
  reapEverySec: number;
  /** doctor / attach `--host NAME`: the configured host to check or watch; null: this machine. */
  hostTarget: string | null;
  /** From TMUX / TMUX_PANE when the server itself runs inside tmux. */
  caller: Caller | null;
  /** `--pane-env`: changes to the pager defaults of every owned pane (null: a default dropped). */
  paneEnv: readonly PaneEnvEntry[];
  /** `--policy FILE`: the command policy in force; null: every command may run. */
  policy: Policy | null;
}

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
        host: { type: "string", multiple: true },
        "pane-env": { type: "string", multiple: true },
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
    if (name === "host" || name === "pane-env") continue; // repeatable: read below
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
  const hostLeaseSec = Number(values["host-lease"] ?? 600);
  if (!Number.isInteger(hostLeaseSec) || hostLeaseSec < 2 || hostLeaseSec > 30 * 86400) {
    throw new ConfigError(`Invalid --host-lease "${values["host-lease"]}": whole seconds from 2 to 2592000 (30 days)`);
  }
  const reapEverySec = Number(values["reap-every"] ?? 60);
  if (!Number.isInteger(reapEverySec) || reapEverySec < 1 || reapEverySec > 86400) {
    throw new ConfigError(`Invalid --reap-every "${values["reap-every"]}": whole seconds from 1 to 86400`);
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

  const hostFlags = (parsed.values.host as string[] | undefined) ?? [];
  const fromFlags = parseHostFlags(hostFlags, false);
  // Flags win: the environment's hosts apply when no --host flag defines one.
  const hosts = fromFlags.hosts.length > 0
    ? fromFlags.hosts
    : parseHostFlags([envValue(FLAGS.host.env) ?? ""], true).hosts;
  const hostPicked = fromFlags.target ??
    (command !== "serve" && fromFlags.hosts.length === 1 ? fromFlags.hosts[0].name : null);
  if (hostPicked !== null && command === "serve") {
    throw new ConfigError(`--host "${hostPicked}" lacks a destination: give --host ${hostPicked}=DESTINATION`);
  }
  if (hostPicked !== null && !hosts.some((h) => h.name === hostPicked)) {
    const known = hosts.map((h) => h.name).join(", ") || "none";
    throw new ConfigError(
      `Host "${hostPicked}" is not configured (configured: ${known}); add --host ${hostPicked}=DEST`,
    );
  }

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
    sharedWorkspace: truthy(values["shared-workspace"]),
    stateDir,
    tmuxConfig: absolute("--tmux-config", values["tmux-config"]),
    processFacts: values["process-facts"] === undefined
      ? null
      : oneOf("--process-facts", String(values["process-facts"]), ["proc", "ps"] as const),
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
    hosts,
    sshConfig: parseSshConfig(values["ssh-config"] as string | undefined),
    hostLeaseSec,
    reapEverySec,
    hostTarget: hostPicked,
    caller: parseCaller(envValue("TMUX"), envValue("TMUX_PANE")),
    paneEnv: paneEnvFrom(parsed.values["pane-env"] as string[] | undefined),
    policy: command === "serve" || command === "doctor" ? policyFrom(values.policy as string | undefined) : null,
  };
  const linkProblem = command === "help" || command === "version" ? null : linkPermissionProblem(hosts);
  if (linkProblem) throw new ConfigError(linkProblem);
  // Paths outside the Deno permissions fail here, naming the flag to add, not at the first tool call.
  const sandboxProblem = command === "serve" ? sandboxPathProblem(writtenPaths(config)) : null;
  if (sandboxProblem) throw new ConfigError(sandboxProblem);
  return Object.freeze(config);
}

/** Flags win: the environment's list applies when no --pane-env is given. */
function paneEnvFrom(flags: string[] | undefined): PaneEnvEntry[] {
  if (flags !== undefined && flags.length > 0) return parsePaneEnv(flags, false);
  return parsePaneEnv([envValue(FLAGS["pane-env"].env) ?? ""], true);
}

/** The policy file, read and checked now: a bad one stops the server at start with one line. */
function policyFrom(path: string | undefined): Policy | null {
  if (path === undefined) return null;
  // Like every file flag: `deno task start` runs in the checkout, not where the person typed the command.
  if (!isAbsolute(path)) throw new ConfigError(`policy file ${path}: must be an absolute path`);
  try {
    return loadPolicy(path);
  } catch (error) {
    if (error instanceof PolicyFileError) throw new ConfigError(error.message);
    throw error;
  }
}

/** Paths this configuration writes, each with the flag that chose it. */
function writtenPaths(config: Readonly<Config>): ConfiguredPath[] {
  return [
    { flag: "--state-dir", path: config.stateDir, read: true },
    ...(config.audit ? [{ flag: "--audit", path: config.audit, read: false }] : []),
    ...(config.auditFull ? [{ flag: "--audit-full", path: config.auditFull, read: false }] : []),
  ];
}
