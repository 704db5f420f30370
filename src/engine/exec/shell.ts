import type { TmuxServer } from "../../tmux/server.ts";
import { TOP_OPTION } from "../panes/mod.ts";

/**
 * Which program holds a pane's terminal, as tmux sees it (`pane_current_command` is the name of
 * the foreground process group's leader): a quick answer with no process started; the process
 * facts room (engine/facts) answers what tmux does not know.
 */
/** How a shell is typed into: POSIX syntax, fish, or the C shell family (`source`, `$status`). */
export type ShellKind = "posix" | "fish" | "csh";

const SHELLS: Record<string, ShellKind> = {
  bash: "posix",
  zsh: "posix",
  dash: "posix",
  sh: "posix",
  ash: "posix",
  ksh: "posix",
  mksh: "posix",
  ksh93: "posix",
  yash: "posix",
  oksh: "posix",
  busybox: "posix",
  fish: "fish",
  tcsh: "csh",
  csh: "csh",
};

export function shellKind(command: string): ShellKind | null {
  return SHELLS[command.replace(/^-/, "").replace(/^.*\//, "")] ?? null;
}

export interface ForegroundState {
  /** The pane's process has exited, or the pane is gone. */
  dead: boolean;
  /** The pane no longer exists. */
  gone: boolean;
  deadStatus: number | null;
  /** Name of the foreground program. */
  command: string;
  panePid: number | null;
  /**
   * Something was drawn (a prompt): the cursor left the top-left corner (the row below it in a pane
   * started with a command, whose gate steps down a row), or lines scrolled into history. The one
   * check of "the shell has drawn" (the prompt waits of exec and of send_keys).
   */
  drawn: boolean;
}

const SEP = "\x1f";
const TEMPLATE = ["pane_id", "pane_dead", "pane_dead_status", "pane_current_command", "pane_pid", "cursor_x"]
  .map((f) => `#{${f}}`).join(SEP) + `${SEP}#{cursor_y}${SEP}#{history_size}${SEP}#{${TOP_OPTION}}`;

export async function foreground(tmux: TmuxServer, paneId: string): Promise<ForegroundState> {
  const [line] = await tmux.run("display-message", "-p", "-t", paneId, TEMPLATE);
  const [id, dead, status, command, pid, x, y, history, top] = (line ?? "").split(SEP);
  // tmux 3.3a answers for a pane that no longer exists with empty fields and exit 0.
  const gone = id !== paneId;
  return {
    dead: gone || dead === "1",
    gone,
    deadStatus: /^\d+$/.test(status ?? "") ? Number(status) : null,
    command: command ?? "",
    panePid: /^\d+$/.test(pid ?? "") ? Number(pid) : null,
    drawn: x !== "0" || Number(y) > (Number(top) || 0) || (history ?? "0") !== "0",
  };
}

/**
 * The exit status of a dead pane. tmux 3.3a can mark a pane dead before it has reaped the process
 * (the status is then empty); a no-op job makes it reap every exited child, so ask again a few
 * times within `withinMs`. Null if it never comes.
 */
export async function deadPaneStatus(tmux: TmuxServer, paneId: string, withinMs = 500): Promise<number | null> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const state = await foreground(tmux, paneId).catch(() => null);
    if (state === null || state.gone || !state.dead || state.deadStatus !== null) return state?.deadStatus ?? null;
    if (performance.now() >= deadline) return null;
    await tmux.oneShot("run-shell", ":").catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
