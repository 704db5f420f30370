import { join } from "node:path";
import { tmuxOneShot, UTF8 } from "../../tmux/oneshot.ts";
import { controlAttachArgs } from "../../tmux/control.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { stopSessionTreesScript } from "../../tmux/sweep.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import { type FactsBackend, killByArgvScript } from "../facts/mod.ts";
import { listWorkspaces } from "./listing.ts";
import { lockDir, ownerLiveness } from "./owner_lock.ts";

/**
 * Removes the workspace sessions whose owning process is proven dead (its lock is free) and that
 * were not kept with --keep. A live owner, a workspace of another state directory, or one of an
 * older version (no lock recorded) is never touched. Logs are not touched here: they outlive
 * their panes (retention is by age, see the output room). Returns the removed session names.
 */
export async function reapDeadWorkspaces(
  tmux: TmuxServer,
  socketArgs: readonly string[],
  stateDir: string,
  self: string,
  /** Where process facts come from (null: /proc where readable, else ps). */
  facts: FactsBackend | null = null,
): Promise<string[]> {
  const reaped: string[] = [];
  const dead = (await listWorkspaces(socketArgs, stateDir))
    .filter((w) => w.instance !== self && !w.kept && w.owner === "dead");
  if (dead.length > 0) await killStuckClients(socketArgs, dead.map((w) => w.name), facts);
  for (const workspace of dead) {
    const killed = await endDeadOwner(tmux, workspace.name, workspace.sessionId);
    if (!killed) continue; // another server reaped it first
    reaped.push(workspace.name);
    await Deno.remove(workspace.lockPath!).catch(() => {});
  }
  return reaped;
}

/**
 * Ends a dead owner's workspace session with its processes, as its own end would have: its panes'
 * process trees are read before the session goes and stopped a moment after (src/tmux/sweep.ts).
 * A session killed alone hangs its shells up, and their jobs that ignore the hang-up live on, in
 * no pane's tree any more. False when it was already gone (another server reaped it first).
 */
async function endDeadOwner(tmux: TmuxServer, name: string, sessionId: string): Promise<boolean> {
  const stop = /^[\w.-]+$/.test(name) ? [["run-shell", escapeFormat(stopSessionTreesScript(name))]] : [];
  return await tmux.guarded([...stop, ["kill-session", "-t", sessionId]]).then(() => true, () => false);
}

/**
 * A dead owner's control client (`tmux -C attach`, this machine's process, since the socket is
 * local) can outlive it: when its stdout reader went before its stdin, it never finishes exiting.
 * tmux then no longer lists it but waits for it at `kill-server` for good, telling every new client
 * "server exited unexpectedly". Such clients are found by their exact command line (the one
 * `ControlClient.connect` runs) in the process facts (/proc or ps), by a fixed script tmux runs
 * (this server may not read them itself), and killed.
 */
async function killStuckClients(
  socketArgs: readonly string[],
  sessions: string[],
  facts: FactsBackend | null,
): Promise<void> {
  const safe = sessions.filter((name) => /^[\w.-]+$/.test(name));
  if (safe.length === 0) return;
  // argv[0] is "tmux" or the path it was found at (Deno passes the resolved path).
  const argvs = safe.map((name) => ["tmux", ...UTF8, ...socketArgs, ...controlAttachArgs(name)]);
  const script = killByArgvScript(facts, argvs, safe.map((name) => `=${name}`));
  await tmuxOneShot([...socketArgs, "run-shell", script]).catch(() => {});
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
