import { WINDOW_SIZE } from "../../tmux/dialect.ts";
import { type OneShotResult, tmuxOneShot } from "../../tmux/oneshot.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { ToolError } from "../errors.ts";
import { WORKSPACE_OPTIONS } from "../workspaces/mod.ts";

export interface SessionSpec {
  socketArgs: readonly string[];
  tmuxConfig: string | null;
  pid: number;
  /** The first name tried: 1 is `tmuxwright-<pid>`, n is `tmuxwright-<pid>-<n>`; later ones follow. */
  firstSlot: number;
  /** The owning process (see the workspaces room); recorded so others can tell it from theirs. */
  instance: string;
  /** The owner lock that proves this process lives; null when it could not be taken. */
  lockPath: string | null;
  historyLimit: number;
  /** --keep: marked kept from the start, so a server that dies without a goodbye keeps it too. */
  kept: boolean;
  /** Runs tmux commands that can notify every control client under the session lock (TmuxServer.guarded). */
  guarded: (commands: string[][]) => Promise<string[]>;
}

export interface OpenSession {
  name: string;
  sessionId: string;
  socketPath: string | null;
}

const DEFAULT_SIZE = `${WINDOW_SIZE.width}x${WINDOW_SIZE.height}`;
const INFO = "#{session_id}\x1f#{socket_path}\x1f#{" + WORKSPACE_OPTIONS.instance + "}";

/**
 * Finds an owner's workspace session or creates it: `tmuxwright-<pid>` for the process owner,
 * `tmuxwright-<pid>-<n>` for a session owner, or the next free `-<n>` when that name is held by
 * another owner's workspace (kept by an earlier process with the same pid, or another session). Everything that identifies the owner is set in the same tmux command list as
 * `new-session`, so no other client ever sees the session without it.
 */
export async function openWorkspaceSession(spec: SessionSpec): Promise<OpenSession> {
  const base = `tmuxwright-${spec.pid}`;
  for (let n = spec.firstSlot; n < spec.firstSlot + 16; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    // tmux 3.3 answers display-message for a missing session with empty fields, not an error.
    const existing = await tmuxOneShot([...spec.socketArgs, "display-message", "-p", "-t", `=${name}:`, INFO]);
    const [sessionId, socketPath, instance] = existing.stdout.trim().split("\x1f");
    if (existing.code === 0 && sessionId) {
      if (instance === spec.instance) return { name, sessionId, socketPath: socketPath || null };
      continue; // another process's workspace
    }
    const created = await createRetried(spec, name);
    if (created.code === 0) {
      const [newId, newSocket] = created.stdout.trim().split("\n")[0].split("\x1f");
      return { name, sessionId: newId, socketPath: newSocket || null };
    }
    if (!/duplicate session/.test(created.stderr)) {
      throw new ToolError(
        "TMUX_UNAVAILABLE",
        `Cannot create workspace session "${name}": ${created.stderr.trim()}`,
        "Run tmuxwright doctor to check tmux and the socket.",
      );
    }
  }
  throw new ToolError(
    "TMUX_UNAVAILABLE",
    `Cannot create a workspace session: 16 names from slot ${spec.firstSlot} of "${base}" are held by other processes`,
    "Remove old kept workspaces (tmux kill-session -t NAME), then retry.",
  );
}

/**
 * A tmux server that is exiting (its last session just closed, or it was killed) tells a client
 * that connects meanwhile "server exited unexpectedly"; so does a server started by another
 * client at the same moment. Both pass within moments: the creation is tried again.
 */
async function createRetried(spec: SessionSpec, name: string) {
  for (let attempt = 1;; attempt++) {
    const created = await createSession(spec, name);
    if (created.code === 0 || attempt === 8 || !/server exited unexpectedly/.test(created.stderr)) return created;
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
}

/**
 * Creates the session under the tmux server's session lock (src/tmux/notifying.ts). A tmux server
 * that is not running yet is started by the creation itself, with no lock: nothing can be
 * attaching to a server that does not exist, and the lock's script needs a server to run.
 */
async function createSession(spec: SessionSpec, name: string): Promise<OneShotResult> {
  const commands = sessionCommands(spec, name);
  try {
    const stdout = (await spec.guarded(commands)).join("\n");
    return { code: 0, stdout, stderr: "" };
  } catch (error) {
    if (!(error instanceof TmuxError)) throw error;
    if (error.kind !== "server_gone") return { code: 1, stdout: "", stderr: error.message };
  }
  return await tmuxOneShot([
    ...spec.socketArgs,
    ...(spec.tmuxConfig ? ["-f", spec.tmuxConfig] : []),
    ...commands.flatMap((command, i) => [...(i > 0 ? [";"] : []), ...command]),
  ]);
}

function sessionCommands(spec: SessionSpec, name: string): string[][] {
  // Session-level names differ from the pane-level @tmuxwright_owner: formats fall back to session options.
  const sessionOptions = [
    [WORKSPACE_OPTIONS.pid, String(spec.pid)],
    [WORKSPACE_OPTIONS.instance, spec.instance],
    ...(spec.lockPath === null ? [] : [[WORKSPACE_OPTIONS.lock, spec.lockPath]]),
    ...(spec.kept ? [[WORKSPACE_OPTIONS.kept, "1"]] : []),
    ["history-limit", String(spec.historyLimit)],
    ["default-size", DEFAULT_SIZE],
    ["destroy-unattached", "off"],
  ];
  const banner = `printf 'tmuxwright workspace of process %s\\n' ${spec.pid}; while :; do sleep 86400; done`;
  return [
    [
      "new-session",
      "-d",
      "-P",
      "-F",
      "#{session_id}\x1f#{socket_path}",
      "-s",
      name,
      "-n",
      "tmuxwright",
      "-x",
      String(WINDOW_SIZE.width),
      "-y",
      String(WINDOW_SIZE.height),
      "/bin/sh",
      "-c",
      banner,
    ],
    ...sessionOptions.map(([key, value]) => ["set-option", "-t", `=${name}:`, key, value]),
    // The hub pane keeps the session alive; marked so every server can tell it from a person's pane.
    ["set-option", "-p", "-t", `=${name}:`, "@tmuxwright_hub", "1"],
  ];
}
