import type { TmuxServer } from "../../tmux/server.ts";
import type { ProcessFacts } from "../facts/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";

export const SIGNALS = ["SIGINT", "SIGTERM", "SIGQUIT", "SIGKILL"] as const;
export type Signal = typeof SIGNALS[number];

/**
 * SIGINT and SIGQUIT are the terminal's own keys (C-c, C-\), as a person would press them.
 * SIGTERM and SIGKILL go to the terminal's foreground process group with `kill`, run by the tmux
 * server (`run-shell -b` on a separate client): this server may only start tmux, not signal or
 * read other processes. The group comes from the process facts (the pane process's tpgid);
 * callers check first that the foreground program is not a shell.
 */
export async function deliverSignal(
  tmux: TmuxServer,
  facts: ProcessFacts,
  pane: PaneInfo,
  signal: Signal,
): Promise<void> {
  if (signal === "SIGINT") return void await tmux.run("send-keys", "-t", pane.paneId, "C-c");
  if (signal === "SIGQUIT") return void await tmux.run("send-keys", "-t", pane.paneId, "C-\\");
  if (pane.pid === null || !Number.isInteger(pane.pid)) return;
  await facts.signalForeground(pane.pid, signal === "SIGTERM" ? "TERM" : "KILL");
}
