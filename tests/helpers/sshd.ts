import { join } from "node:path";
import { type LinkDelay, TcpRelay } from "./tcp_relay.ts";
import { removeEventually } from "./harness.ts";

/**
 * A private OpenSSH server for tests: Debian's sshd on a free loopback port, with a host key and
 * a user key generated in a temp dir, its own authorized_keys, and a client config (given to
 * tmuxwright with --ssh-config) that names these hosts:
 *
 * - `alpha`, `beta`: trusted, each through its own TcpRelay, each with its own remote tmux server
 *   (`SetEnv TMUX_TMPDIR`, accepted by sshd)
 * - `stranger`: a host key ssh has never seen (HOST_KEY_UNKNOWN)
 * - `changed`: known_hosts holds another key for it (HOST_KEY_CHANGED)
 * - `notmux`: a PATH without tmux; `oldtmux`: a `tmux` that says it is 3.0a
 * - `slowalpha`: alpha's tmux server, reached through a `tmux` whose control clients (`-C`)
 *   identify slowly (strace delays each of their messages to the server after the first by
 *   `SLOW_IDENTIFY_MS`): what holds tmux 3.3a's crash window open on purpose
 * - `zshhost`, `fishhost`: trusted, with zsh or fish as the session's SHELL (so their tmux
 *   servers start panes with it), each on its own sshd port behind its own relay
 * - with `fleet: N`, `fleet01`…: more trusted hosts (many hosts at once)
 *
 * Sessions get an empty HOME (sshd's `SetEnv`), as test panes do: a developer's rc files would
 * make the hosts' shells slow and their output unpredictable.
 *
 * It accepts the current user, whoever that is (CI runs as root: `PermitRootLogin yes` here only).
 */
/** How long `slowalpha`'s control clients take over each message of their identify after the first. */
export const SLOW_IDENTIFY_MS = 1500;

/** The trusted hosts, each behind its own relay with its own remote tmux server. */
export const LAB_HOSTS = ["alpha", "beta", "gamma", "delta"] as const;
/** A trusted lab host: one of LAB_HOSTS, or `fleetNN` when the lab was started with `fleet`. */
export type LabHost = string;

/** Trusted hosts whose login sessions (and so their tmux servers) have another SHELL than the user's. */
export const SHELL_HOSTS = { zshhost: "/usr/bin/zsh", fishhost: "/usr/bin/fish" } as const;

/** The names of a fleet of `n` more trusted hosts: fleet01, fleet02, … */
export function fleetHosts(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `fleet${String(i + 1).padStart(2, "0")}`);
}

export class SshLab {
  readonly relays = new Map<string, TcpRelay>();
  /** Every trusted host: LAB_HOSTS, then the fleet's. */
  readonly hosts: string[] = [];

  private constructor(
    readonly dir: string,
    readonly sshdPort: number,
    private readonly sshd: Deno.ChildProcess,
    readonly configFile: string,
    /** The directory whose `tmux` the trusted hosts run. */
    readonly hostTmuxDir: string,
  ) {}

  /** The trusted hosts' HOME: empty, so their shells start as a clean test shell does (no developer rc files). */
  get home(): string {
    return join(this.dir, "home");
  }

  /** The remote tmux socket directory of a trusted host (its TMUX_TMPDIR). */
  tmuxTmpdir(host: LabHost): string {
    return join(this.dir, `tmux-${host}`);
  }

  /**
   * tmux on the remote server of a trusted host, run directly (what the host would see), with the
   * host's HOME: a server it starts (a person's, after a restart) gives its panes that HOME, not
   * the developer's (whose rc files, pyenv's, can stall a shell for a minute).
   */
  async remoteTmux(host: LabHost, ...args: string[]): Promise<{ code: number; stdout: string }> {
    const out = await new Deno.Command(join(this.hostTmuxDir, "tmux"), {
      args,
      env: { TMUX_TMPDIR: this.tmuxTmpdir(host), HOME: this.home },
      stdout: "piped",
      stderr: "null",
    }).output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  }

  relay(host: LabHost): TcpRelay {
    return this.relays.get(host)!;
  }

  /** Every trusted host's relay delays each direction by this from now on (see TcpRelay). */
  setDelay(delay: LinkDelay): void {
    for (const relay of this.relays.values()) relay.setDelay(delay);
  }

  /** `fleet`: that many more trusted hosts (fleet01…), each its own relay, link and remote tmux server. */
  /**
   * `hostTmux`: a directory whose `tmux` the trusted hosts run (another release than the local one:
   * tests/hosts_versions_test.ts); by default the `tmux` on this process's PATH, so a host's tmux
   * and a test's own look at it (`remoteTmux`) are one release whichever tmux the suite runs on.
   */
  static async start(options: { delay?: LinkDelay; fleet?: number; hostTmux?: string } = {}): Promise<SshLab> {
    const trusted = [...LAB_HOSTS, ...Object.keys(SHELL_HOSTS), ...fleetHosts(options.fleet ?? 0)];
    const dir = await Deno.makeTempDir({ prefix: "tw-sshlab-" });
    const user = new TextDecoder().decode(
      (await new Deno.Command("id", { args: ["-un"], stdout: "piped" }).output()).stdout,
    ).trim();
    const keygen = async (file: string) => {
      const out = await new Deno.Command("ssh-keygen", {
        args: ["-q", "-t", "ed25519", "-N", "", "-f", file],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) throw new Error(`ssh-keygen: ${new TextDecoder().decode(out.stderr)}`);
      return (await Deno.readTextFile(`${file}.pub`)).trim().split(" ").slice(0, 2).join(" ");
    };
    const [hostKey, otherKey, userKey] = await Promise.all([
      keygen(join(dir, "host_key")),
      keygen(join(dir, "other_host_key")),
      keygen(join(dir, "id")),
    ]);
    await Deno.writeTextFile(join(dir, "authorized_keys"), `${userKey}\n`);
    await Deno.writeTextFile(join(dir, "known_hosts"), `tw-lab ${hostKey}\ntw-changed ${otherKey}\n`);
    for (const host of trusted) await Deno.mkdir(join(dir, `tmux-${host}`), { mode: 0o700 });
    await Deno.mkdir(join(dir, "home"), { mode: 0o700 });
    // PATHs for the hosts without a usable tmux: only sh (and what the script needs), or a fake old tmux.
    await Deno.mkdir(join(dir, "notmux-bin"));
    await Deno.symlink("/bin/sh", join(dir, "notmux-bin", "sh"));
    await Deno.mkdir(join(dir, "oldtmux-bin"));
    await Deno.writeTextFile(join(dir, "oldtmux-bin", "tmux"), "#!/bin/sh\necho 'tmux 3.0a'\n", { mode: 0o755 });
    await Deno.mkdir(join(dir, "slowtmux-bin"));
    const slow = `-e trace=sendmsg -e inject=sendmsg:delay_enter=${SLOW_IDENTIFY_MS * 1000}:when=2+`;
    await Deno.writeTextFile(
      join(dir, "slowtmux-bin", "tmux"),
      `#!/bin/sh\ncase " $* " in *" -C "*) exec strace -qq -o /dev/null ${slow} /usr/bin/tmux "$@";; esac\n` +
        'exec /usr/bin/tmux "$@"\n',
      { mode: 0o755 },
    );

    if (user === "root") await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 }); // sshd's privsep dir
    // Three ports: the usual one, and two whose sessions run with a PATH lacking a usable tmux
    // (sshd resets a PATH sent by the client, so the server's ForceCommand sets it).
    const [port, notmuxPort, oldtmuxPort, slowPort] = [freePort(), freePort(), freePort(), freePort()];
    // A port per shell host: its sessions get that SHELL (sshd's SetEnv; the first SetEnv that applies wins).
    const shellPorts = new Map(Object.keys(SHELL_HOSTS).map((name) => [name, freePort()]));
    const home = `HOME=${join(dir, "home")}`;
    // Without a command (ssh typed in a pane), the login shell, as sshd would run it.
    const withPath = (bin: string) =>
      `ForceCommand PATH=${bin}; export PATH; if [ -n "$SSH_ORIGINAL_COMMAND" ]; then eval "$SSH_ORIGINAL_COMMAND"; ` +
      `else exec "\${SHELL:-/bin/sh}" -l; fi`;
    const hostTmux = options.hostTmux ?? await tmuxDirOnPath();
    const hostPath = withPath(`${hostTmux}:/usr/bin:/bin`);
    const sshdConfig = join(dir, "sshd_config");
    await Deno.writeTextFile(
      sshdConfig,
      [
        `Port ${port}`,
        `Port ${notmuxPort}`,
        `Port ${oldtmuxPort}`,
        `Port ${slowPort}`,
        ...[...shellPorts.values()].map((p) => `Port ${p}`),
        "ListenAddress 127.0.0.1",
        `HostKey ${join(dir, "host_key")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        `AllowUsers ${user}`,
        "StrictModes no",
        "UsePAM no",
        "PermitRootLogin yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "AcceptEnv TMUX_TMPDIR",
        "PrintMotd no",
        "LogLevel ERROR",
        "MaxStartups 100", // a fleet connects at once
        `Match LocalPort ${notmuxPort}`,
        `  ${withPath(join(dir, "notmux-bin"))}`,
        `Match LocalPort ${oldtmuxPort}`,
        `  ${withPath(`${join(dir, "oldtmux-bin")}:/usr/bin:/bin`)}`,
        `Match LocalPort ${slowPort}`,
        `  ${withPath(`${join(dir, "slowtmux-bin")}:/usr/bin:/bin`)}`,
        ...Object.entries(SHELL_HOSTS).flatMap(([name, shell]) => [
          `Match LocalPort ${shellPorts.get(name)}`,
          `  SetEnv ${home} SHELL=${shell}`,
          `  ${hostPath}`,
        ]),
        `Match LocalPort ${port}`,
        `  ${hostPath}`,
        "Match all",
        `  SetEnv ${home}`,
        "",
      ].join("\n"),
    );
    const sshd = new Deno.Command("/usr/sbin/sshd", {
      args: ["-D", "-e", "-f", sshdConfig],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    void drain(sshd.stderr);
    await Promise.all([port, notmuxPort, oldtmuxPort, slowPort, ...shellPorts.values()].map(waitForPort));

    const relays = new Map(trusted.map((name) => [name, new TcpRelay(shellPorts.get(name) ?? port, options.delay)]));
    const common = [
      `User ${user}`,
      `IdentityFile ${join(dir, "id")}`,
      "IdentitiesOnly yes",
      `UserKnownHostsFile ${join(dir, "known_hosts")}`,
      "GlobalKnownHostsFile /dev/null",
      "PasswordAuthentication no",
      "ControlMaster no",
      "ControlPath none",
      "HostName 127.0.0.1",
    ];
    const host = (name: string, lines: string[]) => [`Host ${name}`, ...lines.map((l) => `  ${l}`), ""];
    const configFile = join(dir, "ssh_config");
    await Deno.writeTextFile(
      configFile,
      [
        ...trusted.flatMap((name) =>
          host(name, [
            `Port ${relays.get(name)!.port}`,
            "HostKeyAlias tw-lab",
            `SetEnv TMUX_TMPDIR=${join(dir, `tmux-${name}`)}`,
          ])
        ),
        ...host("stranger", [`Port ${port}`, "HostKeyAlias tw-stranger"]),
        ...host("changed", [`Port ${port}`, "HostKeyAlias tw-changed"]),
        ...host("notmux", [`Port ${notmuxPort}`, "HostKeyAlias tw-lab"]),
        ...host("oldtmux", [`Port ${oldtmuxPort}`, "HostKeyAlias tw-lab"]),
        ...host("slowalpha", [
          `Port ${slowPort}`,
          "HostKeyAlias tw-lab",
          `SetEnv TMUX_TMPDIR=${join(dir, "tmux-alpha")}`,
        ]),
        ...host("nowhere", ["Port 1", "HostKeyAlias tw-lab"]),
        "Host *",
        ...common.map((l) => `  ${l}`),
        "",
      ].join("\n"),
    );
    const lab = new SshLab(dir, port, sshd, configFile, hostTmux);
    for (const [name, relay] of relays) lab.relays.set(name, relay);
    lab.hosts.push(...trusted);
    return lab;
  }

  async close(): Promise<void> {
    for (const relay of this.relays.values()) await relay.close();
    for (const host of this.hosts) await this.remoteTmux(host, "kill-server");
    try {
      this.sshd.kill("SIGTERM");
    } catch { /* gone */ }
    await this.sshd.status;
    await removeEventually(this.dir); // link scripts of links that just ended may still be finishing there
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`sshd did not listen on ${port}`);
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  try {
    for await (const _ of stream) { /* sshd's errors are not the test's */ }
  } catch { /* closed */ }
}

/** The directory of the `tmux` this process's PATH finds (the release the suite runs on). */
async function tmuxDirOnPath(): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", "command -v tmux"], stdout: "piped" }).output();
  const path = new TextDecoder().decode(out.stdout).trim();
  if (!path.startsWith("/")) throw new Error("tmux is not on PATH");
  return path.slice(0, path.lastIndexOf("/"));
}
