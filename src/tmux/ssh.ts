import { hostBusyReason, linkScript } from "./host_session_lock.ts";
import { TmuxError } from "./errors.ts";

/** A configured remote host: the name agents use and what ssh is given (validated at start-up). */
export interface SshTarget {
  host: string;
  destination: string;
  /** `--ssh-config FILE` (`ssh -F`), or null for the user's own configuration. */
  sshConfig: string | null;
  /** Keep-alives: a link that answers none of `count` probes `interval` seconds apart is dead. */
  aliveIntervalSec: number;
  aliveCountMax: number;
  /** Bound on the TCP connect and the ssh handshake. */
  connectTimeoutSec: number;
}

/**
 * ssh gives up after (count + 1) × interval of silence: a probe after each quiet interval, and
 * the connection dropped when one more interval passes than probes allowed (measured: 5 s × 2
 * took 14.4 s). 3 s × 3 notices a black-holed link within 12 s, with three probes to lose
 * before a slow link counts as dead.
 */
export const DEFAULT_SSH_TIMING = { aliveIntervalSec: 3, aliveCountMax: 3, connectTimeoutSec: 10 } as const;

/** The remote name of a session tmuxwright attaches to: letters, digits, '_' and '-' only (shell-safe). */
const SAFE_SESSION = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The ssh argument vector. Options come only from here and the start-up configuration; the
 * destination (never beginning with `-`, checked at start-up) follows `--`; the remote command is
 * one word built from fixed text and a validated session name.
 */
export function sshArgs(target: SshTarget, remoteCommand: string): string[] {
  return [
    "-T",
    "-o",
    "BatchMode=yes",
    "-o",
    `ServerAliveInterval=${target.aliveIntervalSec}`,
    "-o",
    `ServerAliveCountMax=${target.aliveCountMax}`,
    "-o",
    `ConnectTimeout=${target.connectTimeoutSec}`,
    ...(target.sshConfig ? ["-F", target.sshConfig] : []),
    "--",
    target.destination,
    remoteCommand,
  ];
}

/**
 * The remote side of a control connection: sh text, one for every kind of link (ssh hands it to
 * the user's login shell inside `sh -c '…'`, so no `'`, `\` or `!` in it; a container runtime
 * runs `sh -c SCRIPT` itself: link_command.ts). It checks tmux is there and new enough, then runs
 * the link script (src/tmux/host_session_lock.ts): the hub `session` made unless it exists and
 * `tmux -u -C attach` to it with output on (remote panes live in that session; their logs are
 * written from it), all under the host's session lock, and the client's end under it too,
 * whenever the link ends. Its stderr lines starting `tmuxwright:` are read by each kind's
 * classification (classifySshFailure, classifyContainerFailure).
 */
export function remoteControlScript(session: string): string {
  if (!SAFE_SESSION.test(session)) throw new RangeError(`unsafe remote session name ${JSON.stringify(session)}`);
  const script = [
    "command -v tmux >/dev/null 2>&1 || { echo tmuxwright: tmux-missing >&2; exit 127; }",
    "v=$(tmux -V)",
    'case "$v" in "tmux "[012].*|"tmux 3."[01]*) echo "tmuxwright: tmux-old $v" >&2; exit 126;; esac',
  ].join("; ");
  const client = `tmux -u -C attach-session -t =${session}`;
  return `${script}; ${linkScript({ session, client, makeHub: true, orphans: "hub" })}`;
}

/**
 * The user's ssh with a terminal, for a person (`attach --host`): no BatchMode, so ssh may ask
 * them what it would ask in their own terminal (host key, passphrase); the rest as sshArgs.
 */
export function interactiveSshArgs(target: SshTarget, remoteCommand: string): string[] {
  return ["-t", ...(target.sshConfig ? ["-F", target.sshConfig] : []), "--", target.destination, remoteCommand];
}

/** `tmux attach -r` for a person's terminal on a remote workspace (`attach --host`). */
export function remoteAttachCommand(session: string): string {
  if (!SAFE_SESSION.test(session)) throw new RangeError(`unsafe remote session name ${JSON.stringify(session)}`);
  return `tmux attach-session -r -t =${session}`;
}

/** How a host fails, for agents: each kind becomes one error code (src/engine/errors.ts). */
export type HostFailure = "host_unreachable" | "host_key_unknown" | "host_key_changed" | "host_tmux_unusable";

/** A remote host could not be used; `host` is its configured name, `hint` what the user can do. */
export class HostError extends TmuxError {
  constructor(readonly failure: HostFailure, readonly host: string, message: string, readonly hint: string) {
    super(failure === "host_unreachable" ? "disconnected" : "server_gone", message);
    this.name = "HostError";
  }
}

/** Why ssh (or the remote script) ended before the control connection was up, from its stderr. */
export function classifySshFailure(target: SshTarget, stderr: string, code: number | null): HostError {
  const { host, destination } = target;
  const sshCmd = `ssh${target.sshConfig ? ` -F ${target.sshConfig}` : ""} ${destination}`;
  const last = stderr.trim().split("\n").filter((l) => l.trim() !== "").at(-1)?.trim() ?? "";
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i.test(stderr)) {
    const remove = /^\s*(ssh-keygen -f .* -R .*)$/m.exec(stderr)?.[1]?.trim();
    return new HostError(
      "host_key_changed",
      host,
      `Host "${host}" (${destination}) presented a host key different from the one in known_hosts; ` +
        "ssh refused to connect (it may be a reinstalled machine or an attack)",
      `Check the new key out of band; if it is right, remove the old one (${
        remove ?? `ssh-keygen -R HOSTNAME`
      }) and accept the new one with: ${sshCmd}`,
    );
  }
  if (/Host key verification failed|No .* host key is known for|host key is not known/i.test(stderr)) {
    return new HostError(
      "host_key_unknown",
      host,
      `Host "${host}" (${destination}) has a host key ssh does not know yet; tmuxwright never accepts one by itself`,
      `Run ${sshCmd} once in a terminal, check the fingerprint and accept it, then retry`,
    );
  }
  if (/tmuxwright: tmux-missing/.test(stderr) || code === 127) {
    return new HostError(
      "host_tmux_unusable",
      host,
      `tmux is not installed (or not on PATH) on host "${host}" (${destination})`,
      `Install tmux 3.2 or newer on ${destination}`,
    );
  }
  const busy = hostBusyReason(stderr);
  if (busy) return unreachable(host, destination, busy);
  const old = /tmuxwright: tmux-old (.*)$/m.exec(stderr);
  if (old) {
    return new HostError(
      "host_tmux_unusable",
      host,
      `${old[1].trim()} on host "${host}" (${destination}) is too old: tmuxwright needs tmux 3.2 or newer`,
      `Upgrade tmux on ${destination}`,
    );
  }
  return unreachable(host, destination, last || `ssh ended${code === null ? "" : ` with status ${code}`}`);
}

/** The link is down: ssh could not connect, or the connection died (keep-alives, a cut, the remote end). */
export function unreachable(host: string, destination: string, reason: string): HostError {
  return new HostError(
    "host_unreachable",
    host,
    `Host "${host}" (${destination}) is unreachable: ${reason}`,
    `Retry the call: the connection is reopened (with backoff); tmuxwright doctor --host ${host} checks it`,
  );
}
