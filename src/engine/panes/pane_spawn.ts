import { escapeFormat } from "../../tmux/quote.ts";
import type { TmuxServer } from "../../tmux/server.ts";

/** Where a new pane opens and what it is called: the layout half of CreatePaneOptions. */
export interface SpawnPlace {
  /** Split this pane instead of opening a new window. */
  splitFrom?: string;
  direction?: "right" | "below" | "left" | "above";
  /** Percentage of the split pane's size for the new pane. */
  size?: number;
  /** Open the new window here (a target like "$3:" or "$3:4") instead of in the workspace session. */
  windowIn?: string;
  /** The new window's name (default: the pane's name). */
  windowName?: string;
  /** Open a new session holding the pane (tmux names it when `name` is absent). */
  newSession?: { name?: string };
  name?: string;
}

/**
 * The program a new pane runs: `argv` as given, else the shell integration's launch of the user's
 * shell, else the user's shell (with `-c command` when there is one). On a host, the remote user's
 * own shell: tmuxwright's local shell may not exist there.
 */
export function paneProgram(
  command: string | undefined,
  login: boolean,
  shell: string,
  remote: boolean,
): string[] {
  if (remote) return remoteShell(command, login);
  const shellArgs = [shell, ...(login ? ["-l"] : [])];
  return command === undefined ? shellArgs : [...shellArgs, "-c", command];
}

/** The remote user's own shell (tmux's SHELL there), or `command` run by it. */
function remoteShell(command: string | undefined, login: boolean): string[] {
  const shell = 'exec "${SHELL:-/bin/sh}" "$@"';
  if (command !== undefined) return ["/bin/sh", "-c", shell, "sh", "-c", command];
  return ["/bin/sh", "-c", shell, "sh", ...(login ? ["-l"] : [])];
}

/**
 * Opens the pane (split, window or session) running `argv` with the creating command's `common`
 * flags; tmux's listing of it. `sessionId` is the workspace's, where a new window goes by default.
 */
export async function spawnPane(
  tmux: TmuxServer,
  place: SpawnPlace,
  sessionId: string | null,
  common: string[],
  argv: string[],
): Promise<string[]> {
  if (place.splitFrom) {
    const dir = place.direction ?? "below";
    const flags = [
      dir === "right" || dir === "left" ? "-h" : "-v",
      ...(dir === "left" || dir === "above" ? ["-b"] : []),
    ];
    if (place.size !== undefined) flags.push("-l", `${place.size}%`);
    // -d: the window's active pane stays (a change of it is told to every control client: src/tmux/notifying.ts).
    return await tmux.run("split-window", "-d", "-t", place.splitFrom, ...flags, ...common, ...argv);
  } else {
    const title = place.windowName ?? place.name;
    const windowName = title === undefined ? [] : ["-n", escapeFormat(sanitizeTitle(title))];
    if (place.newSession) {
      const name = place.newSession.name === undefined ? [] : ["-s", escapeFormat(place.newSession.name)];
      const newSession = ["new-session", "-d", ...name, ...windowName, ...common, ...argv];
      return await tmux.guarded([newSession]);
    } else {
      const target = place.windowIn ?? `${sessionId}:`;
      // -d: the session's current window stays (src/tmux/notifying.ts).
      return await tmux.run("new-window", "-d", "-t", target, ...windowName, ...common, ...argv);
    }
  }
}

/** Window names are shown to people: no control characters, bounded length. */
function sanitizeTitle(name: string): string {
  // deno-lint-ignore no-control-regex
  return name.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 60);
}
