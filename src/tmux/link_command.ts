import { classifySshFailure, type HostError, interactiveSshArgs, sshArgs, type SshTarget, unreachable } from "./ssh.ts";
import { classifyContainerFailure, containerExecArgs, missingRuntime } from "./container_link.ts";

/**
 * How a host's tmux server is reached: over OpenSSH, or inside a container through its runtime's
 * `exec` (no ssh server in the container). The kind is the only thing that differs by host: the
 * remote script (ssh.ts, remoteControlScript) is one text for every kind, and nothing above
 * src/tmux/ learns the kind.
 */
export type LinkKind = "ssh" | "podman" | "docker";

/** The container runtimes: the CLI of each is the kind's name. */
export const CONTAINER_KINDS = ["podman", "docker"] as const satisfies readonly LinkKind[];

/**
 * The only variables a container runtime's CLI gets (which daemon or context it talks to): it
 * runs with exactly these, when set, and nothing else of the server's environment.
 */
export const RUNTIME_ENV = ["DOCKER_HOST", "CONTAINER_HOST", "DOCKER_CONTEXT"] as const;

/** A configured host's link, validated at start-up (src/config/hosts.ts). */
export interface LinkSpec {
  /** The name agents use. */
  host: string;
  kind: LinkKind;
  /** What messages name it by: the ssh destination, or `podman://CONTAINER` as configured. */
  destination: string;
  /** ssh: destination, configuration and timing. */
  target?: SshTarget;
  /** podman, docker: the container's name or id. */
  container?: string;
}

/** A program to start: its arguments, and its environment (null: the server's, as ssh needs its agent). */
export interface LinkCommand {
  program: string;
  args: string[];
  env: Record<string, string> | null;
}

/**
 * The control connection's command for `spec`, running `script` (sh text) where the host's tmux
 * is. ssh gives it to the user's login shell as `sh -c '…'`; a runtime gets the argument vector
 * `exec -i CONTAINER sh -c SCRIPT` (no login shell, no quoting layer).
 */
export function linkCommand(spec: LinkSpec, script: string, env: EnvLookup = readEnv): LinkCommand {
  if (spec.kind === "ssh") return { program: "ssh", args: sshArgs(sshTarget(spec), `sh -c '${script}'`), env: null };
  return { program: spec.kind, args: containerExecArgs(container(spec), script, false), env: runtimeEnv(env) };
}

/**
 * A person's terminal on the host running `script` (`attach --host`): ssh with a terminal (it may
 * ask what it would ask in their own), or `exec -it`.
 */
export function interactiveLinkCommand(spec: LinkSpec, script: string, env: EnvLookup = readEnv): LinkCommand {
  if (spec.kind === "ssh") return { program: "ssh", args: interactiveSshArgs(sshTarget(spec), script), env: null };
  return { program: spec.kind, args: containerExecArgs(container(spec), script, true), env: runtimeEnv(env) };
}

/** Why the link's program ended before the control connection was up, read by the link's own kind. */
export function classifyLinkFailure(spec: LinkSpec, stderr: string, code: number | null): HostError {
  if (spec.kind === "ssh") return classifySshFailure(sshTarget(spec), stderr, code);
  return classifyContainerFailure(spec.host, spec.kind, container(spec), spec.destination, stderr);
}

/** The link's program is not installed here (or not on PATH): what to install. */
export function missingLinkProgram(spec: LinkSpec): HostError {
  if (spec.kind === "ssh") return unreachable(spec.host, spec.destination, "ssh is not installed or not on PATH");
  return missingRuntime(spec.host, spec.kind, spec.destination);
}

/**
 * How long the link may take to answer its first command: ssh's connect bound and a margin; a
 * runtime's exec answers at once (a missing or stopped container fails in tens of ms), so only
 * the host lock (3 s at most) and a tmux server's start are waited for.
 */
export function linkConnectMs(spec: LinkSpec): number {
  return spec.kind === "ssh" ? (sshTarget(spec).connectTimeoutSec + 5) * 1000 : 10_000;
}

/**
 * Whether the link's end, with nothing read from it since a command was written, means no live
 * tmux server took that command (short of a blocking step, whose answer comes only at its end,
 * or a tmux that crashed on it). A container's exec through a runtime on this machine is a pipe
 * into the container: it carries a command to a tmux that is there, which answers it (and echoes
 * what it types) at once; an exec that stays silent is one whose tmux is gone (a container stopped,
 * and started again, before its old exec has ended: seconds under load). Not ssh, nor a runtime
 * whose daemon is reached over a network (DOCKER_HOST, CONTAINER_HOST other than unix://, or a
 * Docker context): a network can carry a command one way and lose the answer.
 */
export function silentDropIsUnsent(spec: LinkSpec, env: EnvLookup = readEnv): boolean {
  if (spec.kind === "ssh" || env("DOCKER_CONTEXT")) return false;
  return ["DOCKER_HOST", "CONTAINER_HOST"].every((name) => {
    const value = env(name);
    return !value || value.startsWith("unix://");
  });
}

/** Reads one variable of the server's environment; empty counts as unset. */
export type EnvLookup = (name: string) => string | undefined;

function readEnv(name: string): string | undefined {
  return Deno.env.get(name);
}

function runtimeEnv(env: EnvLookup): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of RUNTIME_ENV) {
    const value = env(name);
    if (value) passed[name] = value;
  }
  return passed;
}

function sshTarget(spec: LinkSpec): SshTarget {
  if (!spec.target) throw new RangeError(`host "${spec.host}": an ssh link without its target`);
  return spec.target;
}

function container(spec: LinkSpec): string {
  if (!spec.container) throw new RangeError(`host "${spec.host}": a ${spec.kind} link without its container`);
  return spec.container;
}

/** The link program's own version command (doctor): its output names the program and version. */
export function linkProgramVersion(spec: LinkSpec): LinkCommand {
  return spec.kind === "ssh"
    ? { program: "ssh", args: ["-V"], env: null }
    : { program: spec.kind, args: ["--version"], env: runtimeEnv(readEnv) };
}

/** A command as a person would type it in a POSIX shell (attach --host without a terminal prints it). */
export function typedCommand(command: LinkCommand): string {
  const word = (w: string) => /^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
  const env = Object.entries(command.env ?? {}).map(([name, value]) => `${name}=${word(value)}`);
  return [...env, command.program, ...command.args].map((w, i) => i < env.length ? w : word(w)).join(" ");
}
