import type { ToolContext } from "./context.ts";
import type { PaneInfo } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { assertNotCallerPane } from "../safety/self_protection.ts";
import { directoryProblem } from "../safety/sandbox.ts";

/** Checks a start directory before tmux sees it (tmux would silently fall back to $HOME). */
export async function checkCwd(cwd: string | undefined): Promise<void> {
  if (cwd === undefined) return;
  const problem = await directoryProblem(cwd);
  if (problem) throw new ToolError("INVALID_ARGUMENT", `Invalid cwd ${JSON.stringify(cwd)}: ${problem}`);
}

export function checkName(name: string | undefined): void {
  if (name === undefined) return;
  if (/^[%@$]/.test(name)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Invalid name ${JSON.stringify(name)}: must not start with %, @ or $ (those are tmux ids)`,
    );
  }
  if (name.includes("\0")) throw new ToolError("INVALID_ARGUMENT", "Invalid name: must not contain a NUL byte");
}

/** Payloads (text, commands, input) never reach tmux with a NUL byte: tmux arguments cannot hold one. */
export function checkNoNul(value: string | undefined, what: string): void {
  if (value?.includes("\0")) throw new ToolError("INVALID_ARGUMENT", `Invalid ${what}: must not contain a NUL byte`);
}

export function deadError(pane: PaneInfo, action: string): ToolError {
  return new ToolError(
    "PANE_DEAD",
    `Cannot ${action} pane ${pane.paneId}: its process has exited (status ${pane.exitCode ?? "unknown"})`,
    "Its final output is still readable with capture_pane; create_pane starts a new one.",
  );
}

/**
 * Self-protection and the ownership rule for anything that kills, respawns or stops a pane:
 * never the pane the server runs in or the workspace hub; panes of others need `destructive`.
 */
export function assertKillable(ctx: ToolContext, pane: PaneInfo, action: string): void {
  assertNotCallerPane(ctx.app.config.caller, ctx.workspace.sameServerAsCaller, pane.paneId, action);
  if (ctx.workspace.isHub(pane)) {
    throw new ToolError(
      "PROTECTED_TARGET",
      `Cannot ${action} pane ${pane.paneId}: it keeps the workspace session alive`,
    );
  }
  if (!ctx.workspace.isOwned(pane)) {
    ctx.requireTier("destructive", `${action} pane ${pane.paneId}, which this server did not create`);
  }
}
