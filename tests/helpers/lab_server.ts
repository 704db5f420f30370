import { cleanEnv, runMain, type ServerOptions, startPermissions, TestServer } from "./harness.ts";
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
export function labCli(lab: SshLab | PodmanLab, hosts: LabHosts, args: string[], extra?: Record<string, string>) {
  return runMain(args, labCliEnv(lab, hosts, extra));
}

/**
 * Runs `attach --host HOST` on a terminal, as a person would: in a local tmux pane (its socket in
 * the lab's directory) with `labCliEnv`. Polls `clients()` (the host's `list-clients`) until it
 * holds `want`, up to 30 s (deno's start-up and the link's login on a busy machine); returns what
 * it last listed. The local tmux server goes afterwards.
 */
export async function attachOnTerminal(
  lab: SshLab | PodmanLab,
  hosts: LabHosts,
  host: string,
  want: string,
  clients: () => Promise<string>,
): Promise<string> {
  const socket = `${lab.dir}/attach.sock`; // removed with the lab's directory
  const env = labCliEnv(lab, hosts);
  const command = [Deno.execPath(), "run", ...startPermissions(env), `${ROOT}main.ts`, "attach", "--host", host]
    .map((w) => `'${w}'`).join(" ");
  const local = (...args: string[]) =>
    new Deno.Command("tmux", { args: ["-S", socket, "-f", "/dev/null", ...args], env, clearEnv: true }).output();
  await local("new-session", "-d", "-x", "100", "-y", "30", command);
  try {
    let listed = "";
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline && !listed.includes(want)) {
      await new Promise((r) => setTimeout(r, 50));
      listed = await clients();
    }
    return listed;
  } finally {
    await local("kill-server");
  }
}
