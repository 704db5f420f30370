import { dirname } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { type FollowHandle, LogFollower, logSize } from "./follower.ts";
import { SessionTaps } from "./session_taps.ts";

/** What the output source needs to know of a pane (a `PaneInfo` is one). */
export interface OutputPane {
  paneId: string;
  sessionName: string;
  /** The pane's log file, when tmuxwright created the pane. */
  logPath: string | null;
}

export interface OutputSubscription {
  close(): void;
}

/**
 * The event source for a pane's output bytes. Owned panes: their pipe-pane log followed with
 * watchFs (durable, byte offsets). Other panes: control-mode `%output` from a client attached to
 * that pane's session, switched on for that pane only while someone listens (see SessionTaps).
 */
export class PaneOutput {
  readonly follower: LogFollower;
  readonly taps: SessionTaps;

  constructor(tmux: TmuxServer, private readonly logDir: string) {
    this.follower = new LogFollower(logDir);
    this.taps = new SessionTaps(tmux.socketArgs, tmux.sessionGuard);
  }

  /**
   * Calls `onBytes` with every byte the pane writes from now on (or, for a logged pane, from
   * `fromOffset` in its log). Resolves once the subscription is live.
   */
  async subscribe(
    pane: OutputPane,
    onBytes: (bytes: Uint8Array) => void,
    fromOffset?: number,
  ): Promise<OutputSubscription> {
    if (this.followsLog(pane)) {
      const start = fromOffset ?? await logSize(pane.logPath!);
      const handle: FollowHandle = this.follower.follow(pane.logPath!, start, (bytes) => onBytes(bytes));
      return { close: () => handle.close() };
    }
    return await this.taps.subscribe(pane.sessionName, pane.paneId, onBytes);
  }

  /** Whether the pane's bytes come from its log (a pane of this state directory) rather than `%output`. */
  followsLog(pane: OutputPane): boolean {
    return pane.logPath !== null && dirname(pane.logPath) === this.logDir;
  }

  close(): void {
    this.follower.close();
    this.taps.close();
  }
}
