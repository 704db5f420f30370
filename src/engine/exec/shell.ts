import type { TmuxServer } from "../../tmux/server.ts";

/**
 * Which program holds a pane's terminal, as tmux sees it (`pane_current_command` is the name of
 * the foreground process group's leader). Deno's permissions keep /proc of other processes out
 * of reach for this server (`--allow-read` does not cover it), so tmux is the source.
 */
export type ShellKind = "posix" | "fish";

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
  busybox: "posix",
  fish: "fish",
};

export function shellKind(command: string): ShellKind | null {
  return SHELLS[command.replace(/^-/, "").replace(/^.*\//, "")] ?? null;
}

export interface ForegroundState {
  dead: boolean;
  deadStatus: number | null;
  /** Name of the foreground program. */
  command: string;
  panePid: number | null;
  /** Something was drawn (a prompt): cursor moved or history exists. */
  drawn: boolean;
}

const SEP = "\x1f";
const TEMPLATE = ["pane_dead", "pane_dead_status", "pane_current_command", "pane_pid", "cursor_x", "cursor_y"]
  .map((f) => `#{${f}}`).join(SEP) + `${SEP}#{history_size}`;

export async function foreground(tmux: TmuxServer, paneId: string): Promise<ForegroundState> {
  const [line] = await tmux.run("display-message", "-p", "-t", paneId, TEMPLATE);
  const [dead, status, command, pid, x, y, history] = (line ?? "").split(SEP);
  return {
    dead: dead === "1",
    deadStatus: /^\d+$/.test(status ?? "") ? Number(status) : null,
    command: command ?? "",
    panePid: /^\d+$/.test(pid ?? "") ? Number(pid) : null,
    drawn: x !== "0" || y !== "0" || (history ?? "0") !== "0",
  };
}
