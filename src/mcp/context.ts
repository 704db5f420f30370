import type { Tier } from "../config.ts";
import type { App } from "../app.ts";
import type { TmuxServer } from "../tmux/server.ts";
import type { PaneInfo, Workspace } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { resolvePane } from "../engine/panes/mod.ts";

const TIER_RANK: Record<Tier, number> = { readonly: 0, mutating: 1, destructive: 2 };

export function tierAllows(configured: Tier, needed: Tier): boolean {
  return TIER_RANK[configured] >= TIER_RANK[needed];
}

/** What a handler gets for one call. */
export class ToolContext {
  /** The pane the call ended up targeting, for the audit line. */
  paneId: string | null = null;

  constructor(
    readonly app: App,
    readonly signal: AbortSignal,
    private readonly sendProgress: (progress: number, total?: number, message?: string) => Promise<void>,
    /** The connection the call came from: tags the events the call causes (channel pushes). */
    readonly origin?: string,
    /** When the call came in (performance.now()): a timeout_ms counts from here. */
    readonly startedAt: number = performance.now(),
  ) {}

  get tmux(): TmuxServer {
    return this.app.tmux;
  }

  get workspace(): Workspace {
    return this.app.workspace;
  }

  /** `recent`: typing and waiting on a remote pane may use what its link last said of it (see RecentPanes). */
  async pane(ref: string, options: { recent?: boolean } = {}): Promise<PaneInfo> {
    const { instance, names } = this.app.workspace;
    const pane = await resolvePane(this.app.tmux, ref, instance, names, options);
    this.paneId = pane.paneId;
    return pane;
  }

  /** For actions whose tier depends on the target (a user's pane needs `destructive`). */
  requireTier(needed: Tier, action: string): void {
    if (tierAllows(this.app.config.safety, needed)) return;
    throw new ToolError(
      "TIER_DENIED",
      `Cannot ${action}: needs safety tier "${needed}", this server runs at "${this.app.config.safety}"`,
      `Restart tmuxwright with --safety ${needed} (or TMUXWRIGHT_SAFETY=${needed}) to allow it.`,
    );
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.sendProgress(progress, total, message).catch(() => {});
  }
}
