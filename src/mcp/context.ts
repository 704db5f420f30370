import type { Config, Tier } from "../cli/config.ts";
import type { Workspace } from "../engine/panes/workspace.ts";
import type { TmuxServer } from "../tmux/server.ts";
import type { AuditLog } from "../audit/audit.ts";
import type { PaneOutput } from "../engine/output/source.ts";
import type { ProcReader } from "../engine/watch/proc_reader.ts";
import type { PaneInfo } from "../engine/panes/panes.ts";
import { ToolError } from "../engine/errors.ts";
import { resolvePane } from "../engine/panes/targets.ts";

/** Long-lived state shared by every tool call of one server process. */
export interface Engine {
  config: Readonly<Config>;
  workspace: Workspace;
  tmux: TmuxServer;
  audit: AuditLog;
  /** Live output bytes of any pane (log follower for owned panes, %output for others). */
  output: PaneOutput;
  /** Process facts from /proc, read through tmux (the sandbox does not let Deno read /proc). */
  proc: ProcReader;
}

const TIER_RANK: Record<Tier, number> = { readonly: 0, mutating: 1, destructive: 2 };

export function tierAllows(configured: Tier, needed: Tier): boolean {
  return TIER_RANK[configured] >= TIER_RANK[needed];
}

/** What a handler gets for one call. */
export class ToolContext {
  /** The pane the call ended up targeting, for the audit line. */
  paneId: string | null = null;

  constructor(
    readonly engine: Engine,
    readonly signal: AbortSignal,
    private readonly sendProgress: (progress: number, total?: number, message?: string) => Promise<void>,
  ) {}

  get tmux(): TmuxServer {
    return this.engine.tmux;
  }

  get workspace(): Workspace {
    return this.engine.workspace;
  }

  async pane(ref: string): Promise<PaneInfo> {
    const pane = await resolvePane(this.engine.tmux, ref);
    this.paneId = pane.paneId;
    return pane;
  }

  /** For actions whose tier depends on the target (a user's pane needs `destructive`). */
  requireTier(needed: Tier, action: string): void {
    if (tierAllows(this.engine.config.safety, needed)) return;
    throw new ToolError(
      "TIER_DENIED",
      `Cannot ${action}: needs safety tier "${needed}", this server runs at "${this.engine.config.safety}"`,
      `Restart tmuxwright with --safety ${needed} (or TMUXWRIGHT_SAFETY=${needed}) to allow it.`,
    );
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.sendProgress(progress, total, message).catch(() => {});
  }
}
