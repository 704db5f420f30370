import { HostError } from "./ssh.ts";
import { hostBusyReason } from "./host_session_lock.ts";

/**
 * A host that is a container, reached through its runtime's `exec` (podman, or docker, which
 * also drives Podman through its Docker API): the runtime's arguments and how its failures read.
 * The container's name is validated at start-up (src/config/hosts.ts): it never starts with `-`.
 */

/**
 * `exec -i [-t] CONTAINER sh -c SCRIPT`. No detach keys: a byte sequence in the stream never
 * ends the link (tmux's control lines escape control bytes anyway; a person's terminal passes
 * ctrl-p to tmux).
 */
export function containerExecArgs(container: string, script: string, terminal: boolean): string[] {
  const text = terminal ? script : `${READ_BEFORE_EXIT}; ${script}`;
  return ["exec", "-i", ...(terminal ? ["-t"] : []), "--detach-keys=", container, "sh", "-c", text];
}

/**
 * Podman 4.3 drops what an exec'd process wrote (its stderr too) when it exits with input unread
 * in its stdin (measured: 16 of 20 `tmux-missing` lost once the link's first command was
 * written). So a script that ends before it becomes tmux (tmux missing, too old, no hub) first
 * reads that command; the trap is not run by `exec tmux`, and keeps the script's status.
 */
const READ_BEFORE_EXIT = "trap 'read -r _ || :' EXIT";

/** Install hints for tmux in an image, by family (shown when the container has no tmux). */
const ADD_TMUX = "add tmux 3.2 or newer to the image (Debian/Ubuntu: RUN apt-get install -y tmux; " +
  "Alpine: RUN apk add tmux; Fedora: RUN dnf install -y tmux)";

/** Why `exec` ended before the control connection was up, from the runtime's stderr (its last line is its message). */
export function classifyContainerFailure(
  host: string,
  runtime: string,
  container: string,
  destination: string,
  stderr: string,
): HostError {
  const where = `host "${host}" (${destination})`;
  const said = stderr.trim().split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const message = said.filter((l) => !l.startsWith("tmuxwright:")).at(-1) ?? `${runtime} exec ended`;
  if (said.some((l) => l === "tmuxwright: tmux-missing")) {
    return new HostError(
      "host_tmux_unusable",
      host,
      `tmux is not installed (or not on PATH) in container "${container}" of ${where}`,
      `${upper(ADD_TMUX)}, or for this container only: ${runtime} exec -u 0 ${container} apt-get install -y tmux ` +
        `(or apk add tmux)`,
    );
  }
  const old = /tmuxwright: tmux-old (.*)$/m.exec(stderr);
  if (old) {
    return new HostError(
      "host_tmux_unusable",
      host,
      `${old[1].trim()} in container "${container}" of ${where} is too old: tmuxwright needs tmux 3.2 or newer`,
      upper(ADD_TMUX),
    );
  }
  const busy = hostBusyReason(stderr);
  if (busy) {
    return new HostError(
      "host_unreachable",
      host,
      `Host "${host}" (${destination}) is unreachable: ${busy}`,
      hintFor(
        runtime,
        container,
        busy,
      ),
    );
  }
  if (/executable file not found|no such file or directory: .*\bsh\b|"sh": /i.test(message)) {
    return new HostError(
      "host_tmux_unusable",
      host,
      `Container "${container}" of ${where} cannot run sh: ${message}`,
      `tmuxwright runs sh and tmux inside the container: use an image with a POSIX sh, and ${ADD_TMUX}`,
    );
  }
  return new HostError(
    "host_unreachable",
    host,
    `Host "${host}" (${destination}) is unreachable: ${runtime} could not run a command in container ` +
      `"${container}": ${message}`,
    hintFor(runtime, container, message),
  );
}

/** What the user can do about a runtime's refusal, by what it says. */
function hintFor(runtime: string, container: string, message: string): string {
  const retry = "the next call tries again";
  if (/no such container|no container with name or id/i.test(message)) {
    return `Create or start container "${container}" (${runtime} ps -a lists the containers), or configure the ` +
      `right one (--host NAME=${runtime}://CONTAINER); ${retry}`;
  }
  if (/not running|state improper|is paused|is restarting/i.test(message)) {
    return `Start the container (${runtime} start ${container}, or unpause it); ${retry}`;
  }
  if (/cannot connect|connection refused|permission denied|daemon/i.test(message)) {
    return `Check that ${runtime} reaches its daemon or service as this user (the server passes DOCKER_HOST, ` +
      `CONTAINER_HOST and DOCKER_CONTEXT to it, nothing else of its environment); ${retry}`;
  }
  return `Retry the call (the link is reopened, with backoff); tmuxwright doctor --host checks it`;
}

/** The runtime's CLI is not installed here (or not on PATH). */
export function missingRuntime(host: string, runtime: string, destination: string): HostError {
  return new HostError(
    "host_unreachable",
    host,
    `Host "${host}" (${destination}) is unreachable: ${runtime} is not installed on this machine or not on PATH`,
    `Install ${runtime} where tmuxwright runs (it runs ${runtime} exec), or put it on the server's PATH; ` +
      `tmuxwright doctor --host ${host} checks it`,
  );
}

function upper(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}
