import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "./panes.ts";

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
/** A safety net: facts older than this are looked up again whatever happened. */
const MAX_AGE_MS = 60_000;

/**
 * Pane lookups a remote link answered, kept while nothing on that link could have changed them:
 * any notification tmux sends about the session's layout, windows or panes, any command of this
 * server other than typing and reading, and any reconnect forget them all. A warm command on a
 * remote pane then costs no round trip before its keys go out; a shell that died meanwhile is
 * seen by the command's own dead-pane check.
 */
export class RecentPanes {
  readonly #panes = new Map<string, { pane: PaneInfo; at: number }>();
  readonly #stop: (() => void)[];

  constructor(link: TmuxServer) {
    const forget = () => this.#panes.clear();
    this.#stop = [
      link.onNotification((name) => QUIET_NOTIFICATIONS.has(name) || forget()),
      link.onSend((commands) => commands.every((c) => QUIET_COMMANDS.has(c[0] ?? "")) || forget()),
      link.onStatus((status) => status.kind !== "slow" && forget()),
    ];
  }

  get(paneId: string): PaneInfo | null {
    const entry = this.#panes.get(paneId);
    if (!entry || performance.now() - entry.at > MAX_AGE_MS || entry.pane.dead) return null;
    return entry.pane;
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
