import { underHostLock } from "../../tmux/host_session_lock.ts";
import { SWEEP_FUNCTIONS } from "../../tmux/sweep.ts";
import type { TmuxServer } from "../../tmux/server.ts";

/**
 * Proof of life on a remote tmux server, where the kernel lock of the state directory cannot
 * reach. A tmuxwright server's remote panes live in its hub session there; the hub is alive while
 * a control client is attached to it (its link), and for `ttlSec` after the link last renewed the
 * hub's lease (`@tmuxwright_lease`: the host's clock + TTL, so clocks of other machines never
 * matter). A hub with no client attached and its lease passed belongs to a server that is gone:
 * the next server on that host removes it. A cut link keeps its panes for the TTL; a black-holed
 * one leaves its client attached on the host and keeps them until ssh there gives up; a hub kept
 * with --keep (`@tmuxwright_kept`) is never taken. The host itself ends a hub whose link ended
 * without a goodbye once its lease has passed with no client back (the link script's end,
 * src/tmux/sweep.ts); other servers' renewals reap what that missed (a host that rebooted).
 */
export class HostLease {
  readonly #stop: () => void;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly link: TmuxServer,
    private readonly hub: string,
    private readonly ttlSec: number,
    /** Told the hubs of gone servers this lease removed. */
    private readonly onReaped: (sessions: string[]) => void,
  ) {
    this.#stop = link.onStatus((status) => {
      if (status.kind === "connected") void this.#renew();
    });
    // Renewed well within the TTL. A link that went down is dialled again for it (one try a tick,
    // within its backoff): the host ends a hub whose lease passed with no client back on it
    // (src/tmux/sweep.ts), and an idle server's panes must outlive a cut it has not noticed by a call.
    this.#timer = setInterval(() => link.connections > 0 && void this.#renew(), Math.min(30, ttlSec / 3) * 1000);
    Deno.unrefTimer(Number(this.#timer));
  }

  close(): void {
    this.#stop();
    clearInterval(this.#timer);
  }

  async #renew(): Promise<void> {
    try {
      if (!this.link.connected) return void await this.link.connect(); // renewed on "connected"
      // In the background on the host (its own clock); nothing waits for it on the link.
      const until = `$(( $(${EPOCH}) + ${this.ttlSec} ))`;
      await this.link.run("run-shell", "-b", `tmux set-option -t =${this.hub}: @tmuxwright_lease ${until}`);
      const reaped = await this.link.runShell(reapScript(this.hub));
      const sessions = reaped.stdout.split("\n").filter((line) => line !== "");
      if (sessions.length > 0) this.onReaped(sessions);
    } catch { /* the link is down: the next connect renews */ }
  }
}

/** 20 ms tries of the lock per renewal. */
const REAP_TRIES = 10;

/** The host's clock in Unix seconds, without `%` (tmux's run-shell and runShell keep `%` out): awk's srand() returns it. */
const EPOCH = "awk 'BEGIN { srand(); print srand() }'";

/**
 * Removes hubs of other servers with no client attached and a lease that has passed; prints their
 * names. Under the host's session lock (another server's link may be attaching there), waited for
 * 0.2 s at most: the link's commands queue behind this script, and a lock busy longer leaves the
 * turn to the next renewal (tried once, a busy host with servers coming and going kept passing it).
 */
function reapScript(ownHub: string): string {
  return underHostLock(
    [
      SWEEP_FUNCTIONS,
      `now=$(${EPOCH})`,
      "tmux list-sessions -F '#{session_name}:#{session_attached}:#{@tmuxwright_lease}:#{@tmuxwright_kept}' 2>/dev/null |",
      "while IFS=: read -r n a l k; do",
      `  case "$n" in ${ownHub}) continue;; tmuxwright-link-*) ;; *) continue;; esac`,
      '  case "$l" in ""|*[!0-9]*) continue;; esac',
      // Its panes' process trees first: a session killed alone leaves what ignores the hang-up running.
      '  [ "$a" = 0 ] && [ "$k" != 1 ] && [ "$l" -lt "$now" ] && tw_trees "$n" && tmux kill-session -t "=$n" && echo "$n"',
      "done",
    ].join("\n"),
    REAP_TRIES,
  );
}
