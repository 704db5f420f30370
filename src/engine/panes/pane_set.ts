import type { TmuxServer } from "../../tmux/server.ts";
import type { ServerEvents } from "../events/mod.ts";

/**
 * Control-mode notifications that can mean a pane appeared, vanished or was renamed. Splits and
 * kills in sessions other than the attached one show up only as `%window-pane-changed` (when the
 * active pane changes) or not at all, so a format subscription covers the rest (see below).
 */
const TOPOLOGY = new Set([
  "%window-add",
  "%window-close",
  "%unlinked-window-add",
  "%unlinked-window-close",
  "%window-pane-changed",
  "%layout-change",
  "%sessions-changed",
  "%session-renamed",
  "%window-renamed",
  "%unlinked-window-renamed",
]);
export const PANE_SET_SUBSCRIPTION = "tmuxwright-panes";
const SUBSCRIPTION = PANE_SET_SUBSCRIPTION;
// tmux re-evaluates a subscribed format once a second and reports it only when its value changed:
// every pane of every session (and whether it exited, with its status), so a pane killed in another
// session, or a process that ended in a pane kept open, is noticed within a second. The status is
// part of it because tmux 3.3 can report a pane dead before it has reaped the process's status; the
// pid because a pane respawned from outside is another program (remembered lookups: RecentPanes).
const EVERY_PANE = "#{S:#{W:#{P:#{pane_id}.#{pane_pid}#{?pane_dead,x#{pane_dead_status},} }}}";
/** Notifications come in bursts (a split sends two or three); one check follows the burst. */
const COALESCE_MS = 30;
const FINGERPRINT =
  "#{pane_id}\x1f#{@tmuxwright_name}\x1f#{session_name}\x1f#{window_id}\x1f#{pane_dead}\x1f#{pane_dead_status}";

/**
 * Emits `panes-changed` on the server's event stream when the set of panes (their ids, names, exits,
 * sessions) differs from the last one reported. Driven by tmux's notifications, never by a timer
 * of its own: each burst of notifications costs one `list-panes` on the control connection.
 */
export class PaneSetWatcher {
  #last: string | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #checking = false;
  #again = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  readonly #unlisten: (() => void)[];

  constructor(private readonly tmux: TmuxServer, private readonly events: ServerEvents) {
    this.#unlisten = [
      tmux.onNotification((name, args) => {
        if (TOPOLOGY.has(name) || (name === "%subscription-changed" && args.startsWith(`${SUBSCRIPTION} `))) {
          this.#schedule();
        }
      }),
      tmux.onStatus((status) => {
        if (status.kind !== "connected") return;
        this.#subscribe(0);
        if (status.reconnect) this.#schedule(); // panes may have come and gone while disconnected
      }),
    ];
  }

  close(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#retry);
    this.#unlisten.forEach((unlisten) => unlisten());
  }

  /**
   * The format subscription. A link's first commands can come before tmux has made its control
   * client current ("no current client", seen on ssh links): asked again a few times.
   */
  #subscribe(attempt: number): void {
    this.tmux.run("refresh-client", "-B", `${SUBSCRIPTION}::${EVERY_PANE}`).catch(() => {
      if (attempt >= 5 || !this.tmux.connected) return;
      this.#retry = setTimeout(() => this.#subscribe(attempt + 1), 50 * 2 ** attempt);
    });
  }

  #schedule(): void {
    if (this.#checking) return void (this.#again = true);
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#check();
    }, COALESCE_MS);
  }

  async #check(): Promise<void> {
    this.#checking = true;
    try {
      const rows = await this.tmux.run("list-panes", "-a", "-F", FINGERPRINT);
      const fingerprint = rows.toSorted().join("\n");
      if (fingerprint !== this.#last) {
        this.#last = fingerprint;
        this.events.emit({ kind: "panes-changed", ...(this.tmux.remote ? { host: this.tmux.host } : {}) });
      }
    } catch { /* the connection is down; the reconnect schedules a new check */ }
    this.#checking = false;
    if (this.#again) {
      this.#again = false;
      this.#schedule();
    }
  }
}
