/**
 * Workspaces: which workspace sessions a tmux server holds, which server process owns each, and
 * whether that owner still lives (an exclusive lock in the state directory, held for its life).
 */
export { linkDir, type Liveness, lockPathFor, newInstanceId, ownerLiveness, OwnerLock } from "./owner_lock.ts";
export { listWorkspaces, WORKSPACE_NAME, WORKSPACE_OPTIONS, type WorkspaceInfo } from "./listing.ts";
export { pruneDeadLocks, reapDeadWorkspaces } from "./reaper.ts";
