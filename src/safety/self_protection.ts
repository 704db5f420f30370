import type { Config } from "../config.ts";
import type { TmuxServer } from "../tmux/server.ts";
import { ToolError } from "../engine/errors.ts";

/** What the server process itself runs inside, when it was started from a tmux pane. */
export interface CallerScope {
  paneId: string | null;
  /** The caller pane's window now (panes can be moved), or null when the pane is gone. */
  windowId: string | null;
  /** The session from TMUX plus the session holding the caller pane now. */
  sessionIds: Set<string>;
}

type Caller = NonNullable<Config["caller"]>;

/**
 * The caller's pane, window and session when `tmux` is the server the process runs in, else null.
 * Same server = same server pid (TMUX carries it) or same socket path; either is proof enough to
 * refuse, and a kill on another server stays allowed.
 */
export async function callerScope(tmux: TmuxServer, caller: Caller | null): Promise<CallerScope | null> {
  if (caller === null) return null;
  const [info] = await tmux.run("display-message", "-p", "#{pid}\x1f#{socket_path}");
  const [pid, socketPath] = (info ?? "").split("\x1f");
  if (Number(pid) !== caller.serverPid && !samePath(socketPath ?? "", caller.socketPath)) return null;
  const scope: CallerScope = { paneId: caller.paneId, windowId: null, sessionIds: new Set([caller.sessionId]) };
  if (caller.paneId !== null) {
    try {
      const [row] = await tmux.run("display-message", "-p", "-t", caller.paneId, "#{window_id}\x1f#{session_id}");
      const [windowId, sessionId] = (row ?? "").split("\x1f");
      if (windowId) scope.windowId = windowId;
      if (sessionId) scope.sessionIds.add(sessionId);
    } catch { /* the caller pane is gone: only the session and server stay protected */ }
  }
  return scope;
}

export type ProtectedTarget =
  | { kind: "pane"; paneId: string }
  | { kind: "window"; windowId: string }
  | { kind: "session"; sessionId: string }
  | { kind: "server" };

/** Why killing or respawning `target` would end this server's own terminal, or null when it would not. */
export function selfProtectionReason(scope: CallerScope | null, target: ProtectedTarget): string | null {
  if (scope === null) return null;
  switch (target.kind) {
    case "pane":
      return target.paneId === scope.paneId ? `tmuxwright itself runs in pane ${target.paneId}` : null;
    case "window":
      return target.windowId === scope.windowId
        ? `tmuxwright itself runs in window ${target.windowId} (pane ${scope.paneId})`
        : null;
    case "session":
      return scope.sessionIds.has(target.sessionId) ? `tmuxwright itself runs in session ${target.sessionId}` : null;
    case "server":
      return "tmuxwright itself runs inside this tmux server";
  }
}

/**
 * Synchronous pane check for kill/respawn/stop of one pane. `sameServer` is
 * Workspace.sameServerAsCaller: tmux's own socket path compared with the one in TMUX.
 */
export function assertNotCallerPane(caller: Caller | null, sameServer: boolean, paneId: string, action: string): void {
  if (caller === null || !sameServer || caller.paneId !== paneId) return;
  throw protectedError(action, { kind: "pane", paneId }, `tmuxwright itself runs in pane ${paneId}`);
}

/** Throws PROTECTED_TARGET when `action` on `target` would end the terminal this server runs in. */
export async function assertNotSelf(
  tmux: TmuxServer,
  caller: Caller | null,
  target: ProtectedTarget,
  action: string,
): Promise<void> {
  const reason = selfProtectionReason(await callerScope(tmux, caller), target);
  if (reason !== null) throw protectedError(action, target, reason);
}

/**
 * For a server reached by another socket than the connection's: refuses when it is the server the
 * process runs in (same server pid or same socket path as in TMUX).
 */
export function assertNotCallerServer(
  caller: Caller | null,
  server: { pid: number | null; socketPath: string },
  action: string,
): void {
  if (caller === null) return;
  if (server.pid !== caller.serverPid && !samePath(server.socketPath, caller.socketPath)) return;
  throw protectedError(action, { kind: "server" }, "tmuxwright itself runs inside this tmux server");
}

function protectedError(action: string, target: ProtectedTarget, reason: string): ToolError {
  const what = target.kind === "server" ? "the tmux server" : `${target.kind} ${targetId(target)}`;
  return new ToolError(
    "PROTECTED_TARGET",
    `Cannot ${action} ${what}: ${reason}`,
    "This is refused at every safety tier; pick another target with list_panes.",
  );
}

function targetId(target: ProtectedTarget): string {
  return target.kind === "pane"
    ? target.paneId
    : target.kind === "window"
    ? target.windowId
    : target.kind === "session"
    ? target.sessionId
    : "";
}

function samePath(a: string, b: string): boolean {
  if (a === "" || b === "") return false;
  if (a === b) return true;
  try {
    return Deno.realPathSync(a) === Deno.realPathSync(b);
  } catch {
    return false; // not permitted to resolve (sandbox) or gone: the pid comparison decides
  }
}
