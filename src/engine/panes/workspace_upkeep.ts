import type { Config } from "../../config.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import type { ServerEvents } from "../events/mod.ts";
import { pruneLogs } from "../output/mod.ts";
import { pruneDeadLocks, reapDeadWorkspaces } from "../workspaces/mod.ts";

/** A long-running server applies log retention again this often. */
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * A workspace's upkeep on its tmux server: workspace sessions whose owning process is proven dead
 * are removed, then old logs and dead owners' lock files; once per process at first, and for the
 * hub again every --reap-every seconds (servers killed after this one started leave workspaces
 * too) with retention once an hour. Never touches other sessions.
 */
export class WorkspaceUpkeep {
  #reaping: Promise<string[]> | null = null;
  /** Log retention and old lock files, begun after the first reaping; the workspace's end waits for it. */
  #pruning: Promise<void> = Promise.resolve();
  #prunedAt = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #again = false;
  #stopped = false;

  constructor(
    private readonly config: Readonly<Config>,
    private readonly events: ServerEvents,
    private readonly tmux: TmuxServer,
    private readonly instance: string,
    /** Only the hub looks again later. */
    private readonly hub: boolean,
  ) {}

  /** The first reaping (once per process; later calls share the result). */
  reapStale(): Promise<string[]> {
    this.#reaping ??= this.#reapStale().catch(() => []);
    return this.#reaping;
  }

  /** The pruning under way (or done). */
  get pruning(): Promise<void> {
    return this.#pruning;
  }

  /** No more looks: the workspace ends. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  async #reapStale(): Promise<string[]> {
    try {
      const reaped = await this.#reapDead();
      // Old logs and lock files go meanwhile: a state directory of thousands of logs must not hold up the first pane.
      this.#pruning = this.#prune();
      return reaped;
    } finally {
      if (this.hub && !this.#stopped) {
        this.#timer ??= setInterval(() => void this.#reapAgain(), this.config.reapEverySec * 1000);
        Deno.unrefTimer(this.#timer);
      }
    }
  }

  async #reapDead(): Promise<string[]> {
    const { socketArgs, stateDir } = this.config;
    const reaped = await reapDeadWorkspaces(this.tmux, socketArgs, stateDir, this.instance, this.config.processFacts);
    if (reaped.length > 0) {
      this.events.log("info", "workspace", `removed stale workspaces whose server is gone: ${reaped.join(", ")}`);
    }
    return reaped;
  }

  async #prune(): Promise<void> {
    const { stateDir, logRetentionDays } = this.config;
    this.#prunedAt = performance.now();
    await pruneLogs(stateDir, logRetentionDays)
      .catch((error) => this.events.log("error", "logs", `log retention failed: ${(error as Error).message}`));
    await pruneDeadLocks(stateDir, logRetentionDays).catch(() => {});
  }

  /** A later look (one at a time): dead workspaces, and retention again once an hour. */
  async #reapAgain(): Promise<void> {
    if (this.#stopped || this.#again) return;
    this.#again = true;
    try {
      await this.#reapDead();
      if (this.#stopped) return;
      if (performance.now() - this.#prunedAt > PRUNE_EVERY_MS) await (this.#pruning = this.#prune());
    } catch {
      /* tmux is out of reach now: the next look tries again */
    } finally {
      this.#again = false;
    }
  }
}
