import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "./panes.ts";
import { PANE_SET_SUBSCRIPTION } from "./pane_set.ts";

/** Notifications that change nothing a pane lookup returns. */
const QUIET_NOTIFICATIONS = new Set([
  "%output",
  "%extended-output",
  "%pause",
  "%continue",
  "%paste-buffer-changed",
  "%paste-buffer-deleted",
  "%message",
  "%subscription-changed",
]);
/** Commands this server sends that change nothing a pane lookup returns (typing, reading, buffers). */
const QUIET_COMMANDS = new Set([
  "display-message",
  "capture-pane",
  "set-buffer",
  "save-buffer",
  "delete-buffer",
  "paste-buffer",
  "load-buffer",
  "show-buffer",
  "send-keys",
  "copy-mode",
  "list-panes",
  "list-windows",
  "list-sessions",
  "list-clients",
  "show-options",
  "show-environment",
  "refresh-client",
  "run-shell",
  "has-session",
  "wait-for",
]);
/** `%N.PID` or `%N.PIDxSTATUS` (dead) per pane: the pane-set subscription's value (PaneSetWatcher). */
const PANE_TOKEN = /^(%\d+)\.(\d*)(x?)/;

/** A safety net: facts older than this are looked up again whatever happened. */
const MAX_AGE_MS = 60_000;

/**
 * Pane lookups a remote link answered, kept while nothing on that link could have changed them:
 * any notification tmux sends about the session's layout, windows or panes, any command of this
 * server other than typing and reading, and any reconnect forget them all. A warm command on a
 * remote pane then costs no round trip before its keys go out. A shell that dies in a kept pane
 * sends no notification: the pane-set subscription says so within about a second (tmux looks at
 * subscribed formats once a second); before that, the command's own dead-pane check sees it.
 */
export class RecentPanes {
  readonly #panes = new Map<string, { pane: PaneInfo; at: number }>();
  readonly #stop: (() => void)[];

  constructor(link: TmuxServer) {
    const forget = () => this.#panes.clear();
    this.#stop = [
      link.onNotification((name, args) => {
        if (name === "%subscription-changed" && args.startsWith(`${PANE_SET_SUBSCRIPTION} `)) this.#paneSet(args);
        else if (!QUIET_NOTIFICATIONS.has(name)) forget();
      }),
      link.onSend((commands) => commands.every((c) => QUIET_COMMANDS.has(c[0] ?? "")) || forget()),
      link.onStatus((status) => status.kind !== "slow" && forget()),
    ];
  }

  get(paneId: string): PaneInfo | null {
    const entry = this.#panes.get(paneId);
    if (!entry || performance.now() - entry.at > MAX_AGE_MS || entry.pane.dead) return null;
    return entry.pane;
  }

  /**
   * The pane set as tmux sees it now (within a second): a remembered pane that is gone, dead or
   * runs another process is forgotten, which no other notification says for a shell that dies in
   * a kept pane. A pane that appeared changes nothing remembered.
   */
  #paneSet(args: string): void {
    const now = new Map<string, { pid: string; dead: boolean }>();
    for (const token of args.slice(args.indexOf(" : ") + 3).split(" ")) {
      const match = PANE_TOKEN.exec(token);
      if (match) now.set(match[1], { pid: match[2], dead: match[3] === "x" });
    }
    for (const [id, { pane }] of this.#panes) {
      const seen = now.get(id);
      if (!seen || seen.dead || seen.pid !== String(pane.pid ?? "")) this.#panes.delete(id);
    }
  }

  remember(pane: PaneInfo): void {
    if (this.#panes.size > 256) this.#panes.clear();
    this.#panes.set(pane.paneId, { pane, at: performance.now() });
  }

  close(): void {
    for (const stop of this.#stop) stop();
    this.#panes.clear();
  }
}
