import { dirname } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { type FollowHandle, LogFollower, logSize } from "./follower.ts";

/**
 * Receives a pane's bytes. A returned promise holds further reads of a logged pane until it settles
 * (its log keeps the rest); `%output` cannot be held, so the consumer queues it.
 */
export type OnBytes = (bytes: Uint8Array) => void | Promise<void>;

export interface SubscribeOptions {
  /** Read from this offset of a logged pane's log (default: its end now). */
  fromOffset?: number;
  /** `bytes` may be a view of a reused buffer, valid only during the call (copy what you keep). */
  borrow?: boolean;
}
import { SessionTaps } from "./session_taps.ts";
import { ToolError } from "../errors.ts";

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

  constructor(private readonly tmux: TmuxServer, private readonly logDir: string) {
    this.follower = new LogFollower(logDir);
    this.taps = new SessionTaps(tmux.socketArgs, tmux.relayRoot);
  }

  /**
   * Calls `onBytes` with every byte the pane writes from now on (or, for a logged pane, from
   * `fromOffset` in its log; a number is that offset). Resolves once the subscription is live.
   */
  async subscribe(
    pane: OutputPane,
    onBytes: OnBytes,
    options: number | SubscribeOptions = {},
  ): Promise<OutputSubscription> {
    const { fromOffset, borrow } = typeof options === "number" ? { fromOffset: options, borrow: false } : options;
    if (this.followsLog(pane)) {
      const start = fromOffset ?? await logSize(pane.logPath!);
      const handle: FollowHandle = this.follower.follow(pane.logPath!, start, (bytes) => onBytes(bytes), { borrow });
      return { close: () => handle.close() };
    }
    if (this.tmux.remote) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot follow the output of pane ${pane.paneId} on host ${this.tmux.host}: only panes tmuxwright created there are logged`,
        "Read its screen and scrollback with capture_pane, or create the pane with create_pane and host.",
      );
    }
    return await this.taps.subscribe(pane.sessionName, pane.paneId, (bytes) => void onBytes(bytes));
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
