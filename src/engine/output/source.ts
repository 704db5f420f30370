import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes.ts";
import { type FollowHandle, LogFollower, logSize } from "./follower.ts";

export interface OutputSubscription {
  close(): void;
}

/**
 * The event source for a pane's output bytes. Owned panes: their pipe-pane log followed with
 * watchFs (durable, byte offsets). Other panes: control-mode `%output`, switched on for that
 * pane only while someone listens.
 */
export class PaneOutput {
  readonly follower: LogFollower;
  readonly #listeners = new Map<string, Set<(bytes: Uint8Array) => void>>();

  constructor(private readonly tmux: TmuxServer, logDir: string) {
    this.follower = new LogFollower(logDir);
    tmux.onOutput((paneId, bytes) => this.#listeners.get(paneId)?.forEach((l) => l(bytes)));
  }

  /**
   * Calls `onBytes` with every byte the pane writes from now on (or, for a logged pane, from
   * `fromOffset` in its log). Resolves once the subscription is live.
   */
  async subscribe(
    pane: PaneInfo,
    onBytes: (bytes: Uint8Array) => void,
    fromOffset?: number,
  ): Promise<OutputSubscription> {
    if (pane.logPath) {
      const start = fromOffset ?? await logSize(pane.logPath);
      const handle: FollowHandle = this.follower.follow(pane.logPath, start, (bytes) => onBytes(bytes));
      return { close: () => handle.close() };
    }
    let set = this.#listeners.get(pane.paneId);
    const first = !set;
    if (!set) this.#listeners.set(pane.paneId, set = new Set());
    set.add(onBytes);
    if (first) await this.tmux.run("refresh-client", "-A", `${pane.paneId}:on`);
    return {
      close: () => {
        set!.delete(onBytes);
        if (set!.size === 0 && this.#listeners.get(pane.paneId) === set) {
          this.#listeners.delete(pane.paneId);
          this.tmux.run("refresh-client", "-A", `${pane.paneId}:off`).catch(() => {});
        }
      },
    };
  }

  close(): void {
    this.follower.close();
  }
}
