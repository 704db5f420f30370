import type { ToolContext } from "./context.ts";
import type { PaneInfo } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { cursorStart, decodeCursor } from "../engine/watch/mod.ts";
import { assertNotCallerPane, assertNotSelf, type ProtectedTarget } from "../safety/self_protection.ts";
import type { Ownership } from "../engine/layout/mod.ts";
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
      "Pick another pane with list_panes.",
    );
  }
  if (!ctx.workspace.isOwned(pane)) {
    ctx.requireTier("destructive", `${action} pane ${pane.paneId}, which this server did not create`);
  }
}

/**
 * The rule for a change to a window or session (kill, rename, move, resize, layout): never the
 * workspace hub; never, at any tier, one the server itself runs in when `self` is set (kill,
 * rename); `destructive` unless every pane in it was created by this server.
 */
export async function assertChangeable(
  ctx: ToolContext,
  target: Ownership & { kind: "window" | "session"; id: string },
  action: string,
  self = false,
): Promise<void> {
  const what = `${target.kind} ${target.id}`;
  if (target.hub) {
    throw new ToolError(
      "PROTECTED_TARGET",
      `Cannot ${action} ${what}: it holds the workspace hub that keeps tmuxwright connected`,
      `Pick another ${target.kind} with list_${target.kind}s.`,
    );
  }
  if (self) {
    const protectedTarget: ProtectedTarget = target.kind === "window"
      ? { kind: "window", windowId: target.id }
      : { kind: "session", sessionId: target.id };
    await assertNotSelf(ctx.tmux, ctx.app.config.caller, protectedTarget, action);
  }
  if (!target.owned) ctx.requireTier("destructive", `${action} ${what}, which this server did not create`);
}

/** The same rule for a change to one pane (title, resize, clear, respawn): ours → mutating, others → destructive. */
export function assertPaneChangeable(ctx: ToolContext, pane: PaneInfo, action: string): void {
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

/** A cursor's start for wait_for_text: it must be this pane's (and not with since: screen). */
export function cursorFor(pane: PaneInfo, token: string, since: string | undefined) {
  const cursor = decodeCursor(token);
  if (since === "screen") {
    throw new ToolError(
      "INVALID_ARGUMENT",
      'Give cursor or since: "screen", not both',
      "Drop since to start at the cursor.",
    );
  }
  if (cursor.p !== pane.paneId || cursor.pid !== pane.pid) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cursor rejected: it belongs to pane ${cursor.p} (process ${cursor.pid}), not pane ${pane.paneId}`,
      "Pass the cursor with the pane_id it came from, or drop it.",
    );
  }
  return cursorStart(cursor);
}
