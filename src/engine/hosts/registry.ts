import { TmuxServer } from "../../tmux/server.ts";
import { DEFAULT_SSH_TIMING, type SshTarget } from "../../tmux/ssh.ts";
import type { LinkKind, LinkSpec } from "../../tmux/link_command.ts";
import { ToolError } from "../errors.ts";
import { HostLease } from "./lease.ts";

/** A configured remote host (validated at start-up: src/config/hosts.ts). */
export interface HostConfig {
  name: string;
  /** As configured: an ssh destination, or `podman://CONTAINER` / `docker://CONTAINER`. */
  destination: string;
  /** How it is reached (absent: ssh); a container runtime's hosts name their container. */
  kind?: LinkKind;
  container?: string;
}

export interface HostRegistryOptions {
  hosts: readonly HostConfig[];
  sshConfig: string | null;
  /** The session each link's control client attaches to on its host (shell-safe, unique per process). */
  hubSession: string;
  /** --keep: the hub sessions stay on the hosts (with the panes kept in them). */
  keep?: boolean;
  /** Leases on each host's hub (the app's: proof of life for its remote panes; none for the CLI's short links). */
  lease?: { ttlSec: number; onReaped(host: string, sessions: string[]): void };
  /** Keep-alive and connect timing (tests shorten it). */
  timing?: Pick<SshTarget, "aliveIntervalSec" | "aliveCountMax" | "connectTimeoutSec">;
}

/**
 * The hosts agents may use, each with its link (a TmuxServer: one persistent control connection).
 * `local` is the machine itself (the app's own TmuxServer); a remote link is made on first use
 * and connects on its first call (a registry without a local server, as the CLI makes, has remote
 * hosts only). Only configured names map to destinations: anything else is
 * HOST_NOT_CONFIGURED and never reaches ssh or a container runtime, whatever it contains.
 */
export class HostRegistry {
  readonly #links = new Map<string, TmuxServer>();
  readonly #targets = new Map<string, LinkSpec>();
  readonly #leases: HostLease[] = [];
  #closed = false;

  constructor(private readonly local: TmuxServer | null, private readonly options: HostRegistryOptions) {
    const timing = options.timing ?? DEFAULT_SSH_TIMING;
    for (const { name, destination, kind = "ssh", container } of options.hosts) {
      const target = kind === "ssh" ? { host: name, destination, sshConfig: options.sshConfig, ...timing } : undefined;
      this.#targets.set(name, { host: name, kind, destination, target, container });
    }
  }

  /** The session each link attaches to on its host; every remote pane of this process lives there. */
  get hubSession(): string {
    return this.options.hubSession;
  }

  /** "local" first, then the configured hosts in the order given. */
  names(): string[] {
    return ["local", ...this.#targets.keys()];
  }

  /** Whether any remote host is configured (results then name the host of local panes too). */
  get hasRemote(): boolean {
    return this.#targets.size > 0;
  }

  isKnown(name: string): boolean {
    return name === "local" || this.#targets.has(name);
  }

  /** How a configured host is reached (for doctor and attach), or HOST_NOT_CONFIGURED. */
  target(name: string): LinkSpec {
    const target = this.#targets.get(name);
    if (!target) throw notConfigured(name, this.names());
    return target;
  }

  /** The link to a host: `local` or a configured name; the link connects on its first call. */
  link(name: string): TmuxServer {
    if (name === "local" && this.local) return this.local;
    const target = this.target(name);
    if (this.#closed) throw new ToolError("HOST_UNREACHABLE", `Host "${name}" is closed: the server is shutting down`);
    let link = this.#links.get(name);
    if (!link) {
      const hub = this.options.hubSession;
      link = new TmuxServer([], () => Promise.resolve(hub), undefined, target);
      this.#links.set(name, link);
      // With --keep the hub is kept from the start: a server killed without a goodbye keeps it too.
      if (this.options.keep) {
        const kept = link;
        kept.onStatus((status) => {
          if (status.kind === "connected") {
            kept.run("set-option", "-t", `=${hub}:`, "@tmuxwright_kept", "1").catch(() => {});
          }
        });
      }
      const lease = this.options.lease;
      if (lease) {
        this.#leases.push(new HostLease(link, hub, lease.ttlSec, (sessions) => lease.onReaped(name, sessions)));
      }
    }
    return link;
  }

  /** Remote links made so far (connected or not). */
  links(): TmuxServer[] {
    return [...this.#links.values()];
  }

  /**
   * Ends every remote link. The host ends it under its session lock once ssh's input closes (the
   * link script, src/tmux/host_session_lock.ts), whatever happens here next; it is only told what
   * to do with the hub first: kept (marked so no later server's lease takes it), or removed with
   * its panes (`@tmuxwright_end kill`). A link that cannot be told in time ends as a killed
   * server's does: the hub stays for the lease to reap.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const lease of this.#leases) lease.close();
    await Promise.all(
      this.links().map(async (link) => {
        if (link.connected) {
          const hub = this.options.hubSession;
          const [option, value] = this.options.keep ? ["@tmuxwright_kept", "1"] : ["@tmuxwright_end", "kill"];
          const told = link.run("set-option", "-t", `=${hub}:`, option, value); // =NAME: (3.3a)
          await Promise.race([told.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
        }
        await link.close();
      }),
    );
  }
}

/** The one error for a host name that is not configured; the name is quoted, never used. */
export function notConfigured(name: string, known: readonly string[]): ToolError {
  const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  return new ToolError(
    "HOST_NOT_CONFIGURED",
    `Host ${shown} is not configured; this server can reach: ${known.join(", ")}`,
    "Use one of those names (the operator adds hosts with --host NAME=DESTINATION).",
  );
}
