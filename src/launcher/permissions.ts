import { FLAGS } from "../config/flags.ts";
import { linkKindOf, linkPrograms } from "../config/hosts.ts";
import { RUNTIME_ENV } from "../tmux/link_command.ts";

/**
 * The `deno run` flags of every way tmuxwright is started (`deno task start`, `deno task bridge`,
 * the npm bin): runtime flags, then least-privilege permissions computed from the command line and
 * the environment. A flag that needs a permission is granted here, nowhere else. Portable: no
 * Deno or Node API, so the same code runs in the Deno launcher (launch.ts) and in the Node bin.
 */

/** Reads one environment variable; an empty value counts as unset (as the server reads them). */
export type EnvLookup = (name: string) => string | undefined;

/** Runtime flags before the permissions: no banners, no prompts, a small young generation. */
export const RUNTIME_FLAGS = [
  "--quiet",
  "--no-prompt",
  "--v8-flags=--max-semi-space-size=1,--optimize-for-size",
] as const;

/** Every variable the server and the bridge read (tests/sandbox_permissions_test.ts checks the list). */
export const ENV_NAMES = [
  "HOME",
  "XDG_STATE_HOME",
  "SHELL",
  "TMUX",
  "TMUX_PANE",
  "TMUXWRIGHT_*",
  "TMUX_DEBUG_AUDIT*",
  "TMUX_BRIDGE_*",
  "ALLOWED_ORIGINS",
  "HOST",
  "PORT",
  "HTTPS",
  "USER",
] as const;

/**
 * The variables the flags depend on: what the launcher (launch.ts) may read to compute them. The
 * shell launcher (tmuxwright.sh) grants exactly these; tests/launcher_test.ts checks that
 * launchFlags reads nothing else.
 */
export const LAUNCHER_ENV = ["HOME", "XDG_STATE_HOME", "USER", "TMUXWRIGHT_*", "TMUX_DEBUG_AUDIT*"] as const;

/** Loopback only: --http and the bridge listen there; nothing else is reached over the network. */
export const NET_HOSTS = ["127.0.0.1", "[::1]", "localhost"] as const;

/** The policy file's flag (read only; its environment variable when the flag is not given). */
const POLICY = { flag: "policy", env: "TMUXWRIGHT_POLICY" } as const;

/** `tmuxwright bridge …` runs the bridge; anything else is the server or one of its commands. */
export function launchCommand(args: readonly string[]): "serve" | "bridge" {
  return args[0] === "bridge" ? "bridge" : "serve";
}

/** The flags that go between `deno run` and the script for `tmuxwright ARGS`. */
export function launchFlags(args: readonly string[], env: EnvLookup): string[] {
  const get = (name: string) => env(name) || undefined;
  const bridge = launchCommand(args) === "bridge";
  // The bridge takes its settings from the old bridge's variables and its own flags, not the server's.
  const flags = bridge ? [] : args;
  const state = flagValue(flags, "state-dir") ?? get(FLAGS["state-dir"].env) ?? defaultStateDir(get);
  const read = [state];
  const write = [state];
  const run = ["tmux"];
  const envNames: string[] = [...ENV_NAMES];
  if (bridge) {
    const socketDir = `/tmp/tmuxwright-bridge-${get("USER") ?? "user"}`;
    read.push(socketDir);
    write.push(socketDir);
  } else {
    // The programs of the configured hosts' links only (ssh, podman, docker), and a runtime's
    // variables only with a container host.
    const kinds = hostDestinations(flags, get).map(linkKindOf).filter((kind) => kind !== null);
    const programs = linkPrograms(kinds.map((kind) => ({ kind })));
    run.push(...programs);
    if (programs.some((p) => p !== "ssh")) envNames.push(...RUNTIME_ENV);
    const audit = flagValue(flags, "audit") ?? get(FLAGS.audit.env);
    const auditFull = flagValue(flags, "audit-full") ?? get(FLAGS["audit-full"].env);
    // The audit file's directory is created when missing, so the grant is the directory.
    for (const path of [audit && parentOf(audit), auditFull]) {
      if (path && !within(path, state)) write.push(path);
    }
    const policy = flagValue(flags, POLICY.flag) ?? get(POLICY.env);
    if (policy && !within(policy, state)) read.push(policy);
  }
  // The server and the bridge take the same TLS flags and variables.
  for (const name of ["tls-cert", "tls-key"] as const) {
    const path = flagValue(args, name) ?? get(FLAGS[name].env);
    if (path && !within(path, state)) read.push(path);
  }
  return [
    ...RUNTIME_FLAGS,
    `--allow-run=${run.join(",")}`,
    `--allow-env=${envNames.join(",")}`,
    `--allow-read=${unique(read).join(",")}`,
    `--allow-write=${unique(write).join(",")}`,
    `--allow-net=${NET_HOSTS.join(",")}`,
  ];
}

/**
 * The destinations of the hosts the server will configure: those of `--host NAME=DEST` flags, else
 * (no flag defines one) of `TMUXWRIGHT_HOSTS`, as src/config.ts chooses. A bare `--host NAME`
 * (doctor, attach) picks one of them.
 */
function hostDestinations(args: readonly string[], get: (name: string) => string | undefined): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") break;
    if (args[i] === "--host" && i + 1 < args.length) values.push(args[++i]);
    else if (args[i].startsWith("--host=")) values.push(args[i].slice("--host=".length));
  }
  const defined = values.filter((v) => v.includes("="));
  const entries = defined.length > 0 ? defined : (get(FLAGS.host.env) ?? "").split(",").filter((v) => v.includes("="));
  return entries.map((entry) => entry.slice(entry.indexOf("=") + 1));
}

/** `$XDG_STATE_HOME/tmuxwright`, else `$HOME/.local/state/tmuxwright` (as src/config.ts chooses). */
function defaultStateDir(get: (name: string) => string | undefined): string {
  const base = get("XDG_STATE_HOME") ?? `${trimSlash(get("HOME") ?? "/tmp")}/.local/state`;
  return `${trimSlash(base)}/tmuxwright`;
}

/** The last value of `--name VALUE` or `--name=VALUE` (the server's parser keeps the last one too). */
function flagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") break;
    if (args[i] === `--${name}` && i + 1 < args.length) value = args[++i];
    else if (args[i].startsWith(`--${name}=`)) value = args[i].slice(name.length + 3);
  }
  return value;
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

function parentOf(path: string): string {
  const trimmed = trimSlash(path);
  const slash = trimmed.lastIndexOf("/");
  return slash <= 0 ? "/" : trimmed.slice(0, slash);
}

function within(path: string, dir: string): boolean {
  const base = trimSlash(dir);
  return path === base || path.startsWith(`${base}/`);
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
