import { isAbsolute, normalize } from "node:path";
import { ConfigError } from "./errors.ts";

/** A remote host agents may use: `name` is what they pass, `destination` what ssh is given. */
export interface HostEntry {
  name: string;
  destination: string;
}

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
    hosts.push({ name, destination });
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

/** `--ssh-config FILE`: an absolute path (ssh -F), or null. */
export function parseSshConfig(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  // deno-lint-ignore no-control-regex
  if (!isAbsolute(value) || /[\x00-\x1f\x7f]/.test(value)) {
    throw new ConfigError(`Invalid --ssh-config "${value}": must be an absolute path`);
  }
  return normalize(value);
}

/**
 * With hosts, the server runs ssh: a start-up error when the Deno permissions do not let it (the
 * one line says what to add), else null.
 */
export function sshPermissionProblem(hosts: readonly HostEntry[]): string | null {
  if (hosts.length === 0) return null;
  if (Deno.permissions.querySync({ name: "run", command: "ssh" }).state === "granted") return null;
  return `--host ${hosts[0].name} needs ssh, which the Deno permissions do not allow: use --allow-run=tmux,ssh ` +
    `(deno task start adds ssh when --host or TMUXWRIGHT_HOSTS is given)`;
}

/**
 * Without hosts nothing may run ssh: a binary compiled with `--allow-run=tmux,ssh` gives the
 * permission up at start-up, so ssh is granted only while hosts are configured.
 */
export function dropSshUnlessHosts(hosts: readonly HostEntry[]): void {
  if (hosts.length > 0) return;
  if (Deno.permissions.querySync({ name: "run", command: "ssh" }).state !== "granted") return;
  Deno.permissions.revokeSync({ name: "run", command: "ssh" });
}
