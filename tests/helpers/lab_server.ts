import { cleanEnv, type ServerOptions, startPermissions, TestServer } from "./harness.ts";
import { SshLab } from "./sshd.ts";
import type { PodmanLab } from "./podman.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The hosts a lab offers a server: names that are the SshLab's ssh aliases (`["alpha"]` is
 * `alpha=alpha`), or host names with their destinations (`{ dev: "podman://CONTAINER" }`,
 * `{ box: "docker://CONTAINER" }`).
 */
export type LabHosts = string[] | Record<string, string>;

/** The environment that configures a server with a lab's hosts: TMUXWRIGHT_HOSTS, and an SshLab's client config. */
export function labEnv(lab: SshLab | PodmanLab, hosts: LabHosts): Record<string, string> {
  const entries = Array.isArray(hosts) ? hosts.map((host) => [host, host]) : Object.entries(hosts);
  const env: Record<string, string> = { TMUXWRIGHT_HOSTS: entries.map(([name, to]) => `${name}=${to}`).join(",") };
  if (lab instanceof SshLab) env.TMUXWRIGHT_SSH_CONFIG = lab.configFile;
  return env;
}

/**
 * A TestServer configured with a lab's hosts (`labEnv`); `extra` is the rest of its start, whose
 * `env` is added. Declared with `await using` after the lab's, it closes before the lab does.
 */
export function labServer(lab: SshLab | PodmanLab, hosts: LabHosts, extra: ServerOptions = {}): Promise<TestServer> {
  return TestServer.start({ ...extra, env: { ...labEnv(lab, hosts), ...extra.env } });
}

/** The clean environment of a CLI command (doctor, attach) with a lab's hosts, its state directory in the lab's. */
export function labCliEnv(
  lab: SshLab | PodmanLab,
  hosts: LabHosts,
  extra: Record<string, string> = {},
): Record<string, string> {
  return cleanEnv({ ...labEnv(lab, hosts), TMUXWRIGHT_STATE_DIR: `${lab.dir}/state`, ...extra });
}

/** Runs main.ts as a CLI command with the start task's permissions, in `labCliEnv`. */
export async function labCli(lab: SshLab | PodmanLab, hosts: LabHosts, args: string[], extra?: Record<string, string>) {
  const env = labCliEnv(lab, hosts, extra);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...startPermissions(env), `${ROOT}main.ts`, ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}
