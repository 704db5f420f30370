import { join } from "node:path";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import type { SessionGuard } from "../../tmux/session_guard.ts";
import { listWorkspaces } from "./listing.ts";
import { lockDir, ownerLiveness } from "./owner_lock.ts";

/**
 * Removes the workspace sessions whose owning process is proven dead (its lock is free) and that
 * were not kept with --keep. A live owner, a workspace of another state directory, or one of an
 * older version (no lock recorded) is never touched. Logs are not touched here: they outlive
 * their panes (retention is by age, see the output room). Returns the removed session names.
 */
export async function reapDeadWorkspaces(
  socketArgs: readonly string[],
  stateDir: string,
  self: string,
  guard: SessionGuard,
): Promise<string[]> {
  const reaped: string[] = [];
  for (const workspace of await listWorkspaces(socketArgs, stateDir)) {
    if (workspace.instance === self || workspace.kept || workspace.owner !== "dead") continue;
    const killed = await guard.run(() => tmuxOneShot([...socketArgs, "kill-session", "-t", workspace.sessionId]));
    if (killed.code !== 0) continue; // another server reaped it first
    reaped.push(workspace.name);
    await Deno.remove(workspace.lockPath!).catch(() => {});
  }
  return reaped;
}

/**
 * Removes lock files of dead owners older than `days`: a dead owner's workspace on a tmux server
 * no later server has used is left (unjudged) after that, as its logs are gone too.
 */
export async function pruneDeadLocks(stateDir: string, days: number): Promise<void> {
  const cutoff = Date.now() - days * 86_400_000;
  const dir = lockDir(stateDir);
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const stat = await Deno.stat(path).catch(() => null);
    if (!stat?.mtime || stat.mtime.getTime() > cutoff) continue;
    if (await ownerLiveness(stateDir, path) === "dead") await Deno.remove(path).catch(() => {});
  }
}
