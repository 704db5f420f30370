import { descendants } from "./proc_tree.ts";

/**
 * Real Podman containers for tests, with no image registry: each container's root is a directory
 * of its own (`--rootfs`) holding empty `usr etc tmp root proc sys dev run var` and `bin lib lib64
 * sbin` linked into `usr`; the machine's `/usr` and `/etc` are mounted read-only, so tmux, sh and
 * flock(1) are there, while `/tmp` (tmux's sockets), `/proc` and PID 1 (`sleep infinity`) are the
 * container's own. runc, not crun (crun fails on these cgroups); host networking (no netavark
 * set-up per test). Every name starts with a prefix of this lab (other workers share the machine),
 * and `close()` removes the containers, their directories and the Docker API service it started.
 *
 * `docker()` starts Podman's Docker-compatible API on a private socket (`podman system service`),
 * so the real Docker CLI drives the same containers with `DOCKER_HOST=unix://SOCKET`.
 */
export class PodmanLab {
  readonly prefix = `tw-${Deno.pid}-${crypto.randomUUID().slice(0, 6)}`;
  readonly #containers = new Set<string>();
  #service: { child: Deno.ChildProcess; host: string } | null = null;
  #count = 0;

  private constructor(readonly dir: string) {}

  static async start(): Promise<PodmanLab> {
    const version = await podman("--version");
    if (version.code !== 0) throw new Error(`podman is needed (apt-get install podman runc): ${version.stderr}`);
    return new PodmanLab(await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-podlab-" }));
  }

  /**
   * A running container named `<prefix>-<label>`. `tmux: false`: its PATH holds only a `sh`, so
   * tmux cannot be found there (the image without tmux). `tmuxBin`: a directory whose `tmux` it
   * runs instead of this machine's.
   */
  async container(label: string, options: { tmux?: boolean; tmuxBin?: string } = {}): Promise<string> {
    const name = `${this.prefix}-${label}`;
    const root = `${this.dir}/root-${++this.#count}`;
    for (const dir of ["usr", "etc", "tmp", "root", "proc", "sys", "dev", "run", "var", "nobin"]) {
      await Deno.mkdir(`${root}/${dir}`, { recursive: true });
    }
    await Deno.chmod(`${root}/tmp`, 0o1777);
    for (const link of ["bin", "lib", "lib64", "sbin"]) await Deno.symlink(`usr/${link}`, `${root}/${link}`);
    await Deno.symlink("/usr/bin/dash", `${root}/nobin/sh`);
    const path = options.tmux === false ? ["--env", "PATH=/nobin"] : [];
    // Another tmux release than this machine's, first on the container's PATH.
    const tmuxBin = options.tmuxBin ? ["-v", `${options.tmuxBin}:/usr/local/bin:ro`] : [];
    const run = await podman(
      "run",
      "-d",
      "--name",
      name,
      "--runtime",
      "runc",
      "--ulimit",
      "nofile=1024:1024",
      "--ulimit",
      "nproc=4096:4096",
      "--network",
      "host",
      "-v",
      "/usr:/usr:ro",
      "-v",
      "/etc:/etc:ro",
      ...path,
      ...tmuxBin,
      "--rootfs",
      root,
      "/usr/bin/sleep", // absolute: PATH may hold no sleep (the container without tmux)
      "infinity",
    );
    this.#containers.add(name); // a failed run can leave it created
    if (run.code !== 0) throw new Error(`podman run ${name}: ${run.stderr}`);
    return name;
  }

  /** A name in this lab that no container has. */
  missing(label: string): string {
    return `${this.prefix}-${label}`;
  }

  /** Runs podman with these arguments. */
  podman(...args: string[]): Promise<Output> {
    return podman(...args);
  }

  /** Runs `sh -c SCRIPT` in the container (a separate exec, not tmuxwright's link); its stdout. */
  async sh(container: string, script: string): Promise<string> {
    const out = await podman("exec", container, "sh", "-c", script);
    if (out.code !== 0) throw new Error(`podman exec ${container}: ${out.stderr}`);
    return out.stdout;
  }

  /** The container's tmux, as a person would run it there. */
  tmux(container: string, ...args: string[]): Promise<Output> {
    return podman("exec", container, "tmux", ...args);
  }

  async stop(container: string): Promise<void> {
    const out = await podman("stop", "-t", "0", container);
    if (out.code !== 0) throw new Error(`podman stop ${container}: ${out.stderr}`);
  }

  async startAgain(container: string): Promise<void> {
    const out = await podman("start", container);
    if (out.code !== 0) throw new Error(`podman start ${container}: ${out.stderr}`);
  }

  /** `DOCKER_HOST` for the real Docker CLI, served by Podman's Docker API on a socket of this lab. */
  async docker(): Promise<string> {
    if (this.#service) return this.#service.host;
    const socket = `${this.dir}/docker.sock`;
    const child = new Deno.Command("podman", {
      args: ["system", "service", "--time=0", `unix://${socket}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    this.#service = { child, host: `unix://${socket}` };
    const deadline = performance.now() + 15_000;
    for (;;) {
      const ping = await new Deno.Command("docker", {
        args: ["version", "--format", "{{.Server.Version}}"],
        env: { DOCKER_HOST: this.#service.host },
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (ping.success) return this.#service.host;
      if (performance.now() > deadline) {
        throw new Error(`Podman's Docker API did not answer: ${new TextDecoder().decode(ping.stderr)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async close(): Promise<void> {
    if (this.#containers.size > 0) await podman("rm", "-f", "-t", "0", ...this.#containers);
    if (this.#service) {
      try {
        this.#service.child.kill("SIGTERM");
      } catch { /* gone */ }
      await this.#service.child.status;
    }
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function podman(...args: string[]): Promise<Output> {
  const out = await new Deno.Command("podman", { args, stdin: "null", stdout: "piped", stderr: "piped" }).output()
    .catch((error) => ({ code: 127, stdout: new Uint8Array(), stderr: new TextEncoder().encode(String(error)) }));
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A process of this machine: its pid, argument vector and environment. */
export interface LinkProcess {
  pid: number;
  args: string[];
  env: Record<string, string>;
}

/** The processes below `parent` running `program` (a server's links: `podman exec …`, `docker exec …`). */
export function linkProcesses(parent: number, program: string): LinkProcess[] {
  return descendants(parent).filter(({ argv }) => argv[0]?.split("/").at(-1) === program).map(({ pid, argv }) => {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/environ`], stdout: "piped", stderr: "null" })
      .outputSync();
    const pairs = new TextDecoder().decode(out.stdout).split("\0").filter((p) => p !== "");
    const env = Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
    return { pid, args: argv, env };
  });
}
