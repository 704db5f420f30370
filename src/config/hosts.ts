import { isAbsolute, normalize } from "node:path";
import { ConfigError } from "./errors.ts";
import { CONTAINER_KINDS, type LinkKind, RUNTIME_ENV } from "../tmux/link_command.ts";

/**
 * A remote host agents may use: `name` is what they pass; `destination` as configured, what ssh
 * is given (`user@host`, a `Host` alias, `ssh://user@host[:port]`), or `podman://CONTAINER` /
 * `docker://CONTAINER`, a container reached through its runtime's exec.
 */
export interface HostEntry {
  name: string;
  destination: string;
  /** How the host is reached (absent: ssh). */
  kind?: LinkKind;
  /** podman, docker: the container's name or id. */
  container?: string;
}

/** A container's name or id as Podman and Docker accept them (never an option, never two words). */
export const CONTAINER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** The machine itself: always present, never a `--host` name. */
export const LOCAL_HOST = "local";

export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

/** What `--host` values (or `TMUXWRIGHT_HOSTS`) say: the hosts, and a bare NAME (doctor, attach: which host). */
export interface HostFlags {
  hosts: HostEntry[];
  target: string | null;
}

/**
 * `--host NAME=DESTINATION` values, or the environment's `NAME=DEST,NAME=DEST`. A destination goes
 * to ssh after `--`; one that starts with `-` or holds whitespace or control characters is refused
 * anyway, so no value can read as an option or split into two words on the remote side.
 */
export function parseHostFlags(values: readonly string[], fromEnv: boolean): HostFlags {
  const hosts: HostEntry[] = [];
  let target: string | null = null;
  const items = fromEnv ? values.flatMap((v) => v.split(",")).filter((v) => v.trim() !== "") : values;
  const where = fromEnv ? "TMUXWRIGHT_HOSTS entry" : "--host";
  for (const item of items) {
    const eq = item.indexOf("=");
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    checkName(name, where, item);
    if (eq < 0) {
      if (fromEnv) throw new ConfigError(`Invalid ${where} "${item}": expected NAME=DESTINATION`);
      if (target !== null) throw new ConfigError(`Give one --host NAME to pick a host, not "${target}" and "${name}"`);
      target = name;
      continue;
    }
    const destination = item.slice(eq + 1);
    checkDestination(destination, where, name);
    if (hosts.some((h) => h.name === name)) throw new ConfigError(`Host "${name}" is configured twice; give it once`);
    hosts.push({ name, destination, ...linkOf(destination, where, name) });
  }
  return { hosts, target };
}

function checkName(name: string, where: string, item: string): void {
  if (name.toLowerCase() === LOCAL_HOST) {
    throw new ConfigError(`Invalid ${where} "${item}": "local" is this machine and cannot name a remote host`);
  }
  if (!HOST_NAME.test(name)) {
    throw new ConfigError(
      `Invalid ${where} "${item}": NAME must be 1 to 32 letters, digits, '_', '.', '-' starting with a letter or digit`,
    );
  }
}

function checkDestination(destination: string, where: string, name: string): void {
  const problem = destination === ""
    ? "is empty"
    : destination.startsWith("-")
    ? "starts with '-' (ssh would read it as an option)"
    // deno-lint-ignore no-control-regex
    : /[\s\x00-\x1f\x7f]/.test(destination)
    ? "holds whitespace or a control character"
    : destination.length > 255
    ? "is longer than 255 characters"
    : null;
  if (problem) {
    throw new ConfigError(
      `Invalid ${where} for "${name}": the destination ${problem}; give an ssh Host alias or user@host`,
    );
  }
}

/** `scheme://` at the start of a destination (ssh's own URL form included). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * How a destination is reached: `podman://` and `docker://` name a container; `ssh://`, an alias
 * or `user@host` go to ssh as given. Any other scheme is refused (a typo must not become an ssh
 * destination). The launcher reads the kind alone (`linkKindOf`), before the server checks the rest.
 */
function linkOf(destination: string, where: string, name: string): { kind: LinkKind; container?: string } {
  const kind = linkKindOf(destination);
  if (kind === null) {
    const scheme = SCHEME.exec(destination)![1];
    throw new ConfigError(
      `Invalid ${where} for "${name}": unknown scheme "${scheme}://"; use ssh://, podman:// or docker://, ` +
        "or an ssh Host alias or user@host",
    );
  }
  if (kind === "ssh") return { kind };
  const container = destination.slice(`${kind}://`.length);
  if (!CONTAINER_NAME.test(container)) {
    throw new ConfigError(
      `Invalid ${where} for "${name}": "${container}" is not a container name (1 to 128 letters, digits, ` +
        `'_', '.', '-', starting with a letter or digit); give ${kind}://CONTAINER`,
    );
  }
  return { kind, container };
}

/** The link kind a destination asks for (null: an unknown scheme). Pure: the launcher uses it too. */
export function linkKindOf(destination: string): LinkKind | null {
  const scheme = SCHEME.exec(destination)?.[1].toLowerCase();
  if (scheme === undefined || scheme === "ssh") return "ssh";
  return (CONTAINER_KINDS as readonly string[]).includes(scheme) ? scheme as LinkKind : null;
}

/** `--ssh-config FILE`: an absolute path (ssh -F), or null. */
export function parseSshConfig(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  // deno-lint-ignore no-control-regex
  if (!isAbsolute(value) || /[\x00-\x1f\x7f]/.test(value)) {
    throw new ConfigError(`Invalid --ssh-config "${value}": must be an absolute path`);
  }
  return normalize(value);
}

/** The programs the hosts' links run (ssh, podman, docker), each once, in that order. */
export function linkPrograms(hosts: readonly Pick<HostEntry, "kind">[]): LinkKind[] {
  const used = new Set(hosts.map((h) => h.kind ?? "ssh"));
  return (["ssh", ...CONTAINER_KINDS] as const).filter((kind) => used.has(kind));
}

/**
 * The hosts' links run programs (and a container runtime gets DOCKER_HOST, CONTAINER_HOST,
 * DOCKER_CONTEXT): a start-up error when the Deno permissions do not allow them (the one line says
 * what to add), else null.
 */
export function linkPermissionProblem(hosts: readonly HostEntry[]): string | null {
  const programs = linkPrograms(hosts);
  const missing = programs.filter(runDenied);
  if (missing.length > 0) {
    const host = hosts.find((h) => (h.kind ?? "ssh") === missing[0])!;
    return `--host ${host.name} needs ${missing[0]}, which the Deno permissions do not allow: use ` +
      `--allow-run=${["tmux", ...programs].join(",")} (deno task start adds what --host or TMUXWRIGHT_HOSTS needs)`;
  }
  const containers = hosts.find((h) => h.kind !== undefined && h.kind !== "ssh");
  const hidden = RUNTIME_ENV.filter((variable) =>
    Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
  );
  if (containers && hidden.length > 0) {
    return `--host ${containers.name} passes ${RUNTIME_ENV.join(", ")} to ${containers.kind}, which the Deno ` +
      `permissions do not allow reading: add them to --allow-env (deno task start does)`;
  }
  return null;
}

/**
 * Whether the permissions refuse to run `command`. A program that is granted but not on PATH
 * queries as not granted too (Deno resolves the name at start-up): that one is no permission
 * problem (doctor and the first call say it is missing), and spawning it tells the two apart
 * without starting anything (NotFound before the permission check, NotCapable after it).
 */
function runDenied(command: string): boolean {
  if (Deno.permissions.querySync({ name: "run", command }).state === "granted") return false;
  try {
    new Deno.Command(command, { args: ["--version"], stdin: "null", stdout: "null", stderr: "null" }).spawn()
      .kill();
    return false;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

/**
 * A binary compiled with every link program (`--allow-run=tmux,ssh,podman,docker`) gives up at
 * start-up those no configured host uses, and the runtime variables when no container is
 * configured: nothing may run ssh or a runtime that the configuration does not name.
 */
export function dropUnusedLinkGrants(hosts: readonly HostEntry[]): void {
  const used = linkPrograms(hosts);
  for (const command of ["ssh", ...CONTAINER_KINDS]) {
    if (used.includes(command as LinkKind)) continue;
    if (Deno.permissions.querySync({ name: "run", command }).state !== "granted") continue;
    Deno.permissions.revokeSync({ name: "run", command });
  }
  if (used.some((kind) => kind !== "ssh")) return;
  for (const variable of RUNTIME_ENV) {
    if (Deno.permissions.querySync({ name: "env", variable }).state === "granted") {
      Deno.permissions.revokeSync({ name: "env", variable });
    }
  }
}
