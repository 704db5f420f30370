import type { TmuxServer } from "../../tmux/server.ts";
import type { PolicyGate } from "../policy/mod.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import type { PaneInfo } from "./panes.ts";
import { TOP_OPTION } from "./gate.ts";

/** A respawned owned pane's command starts one row down, as behind its start-up gate. */
const STEP_DOWN = `printf '\\033[B'; exec "$@"`;

export interface Respawn {
  /** A shell command line; default: the shell (owned panes) or the pane's first command (others). */
  command?: string;
  cwd?: string;
}

/**
 * Ends the pane's process and starts a new one in the same pane (same id, place, options and log).
 * An owned pane never reruns its first command: that was the start-up gate, whose channel is spent.
 */
export async function respawnPane(
  tmux: TmuxServer,
  pane: PaneInfo,
  shell: string,
  owned: boolean,
  options: Respawn,
  gate?: PolicyGate,
) {
  if (options.command !== undefined) {
    await gate?.check({ command: options.command, pane: pane.paneId, host: tmux.host });
  }
  const cwd = options.cwd === undefined ? [] : ["-c", escapeFormat(options.cwd)];
  const command = options.command;
  const program = !owned
    ? command === undefined ? [] : ["--", command]
    : command === undefined
    ? ["--", shell]
    : ["--", "/bin/sh", "-c", STEP_DOWN, "sh", shell, "-c", command]; // its first line survives its end (gate.ts)
  const respawn = ["respawn-pane", "-k", "-t", pane.paneId, ...cwd, ...program];
  const top = ["set-option", "-p", "-t", pane.paneId, TOP_OPTION, owned && command !== undefined ? "1" : "0"];
  // An owned pane keeps its process's pid for when tmux no longer reports it (panes.ts).
  const keepPid = ["set-option", "-F", "-p", "-t", pane.paneId, "@tmuxwright_pid", "#{pane_pid}"];
  await tmux.guarded(owned ? [respawn, top, keepPid] : [respawn]);
}

/** The title tmux shows in borders and status lines; `#` is escaped because tmux expands it as a format. */
export async function setPaneTitle(tmux: TmuxServer, pane: PaneInfo, title: string): Promise<void> {
  await tmux.run("select-pane", "-t", pane.paneId, "-T", escapeFormat(title));
}

/** Clears the visible screen (a terminal reset the program does not see) and the scrollback. */
export async function clearPane(tmux: TmuxServer, pane: PaneInfo): Promise<void> {
  await tmux.batch([["send-keys", "-R", "-t", pane.paneId], ["clear-history", "-t", pane.paneId]]);
}

/** Copy mode, scrolled `scrollUp` lines back into the history. */
export async function enterCopyMode(tmux: TmuxServer, pane: PaneInfo, scrollUp?: number): Promise<void> {
  const commands = [["copy-mode", "-t", pane.paneId]];
  if (scrollUp) commands.push(["send-keys", "-X", "-N", String(scrollUp), "-t", pane.paneId, "scroll-up"]);
  await tmux.guarded(commands);
}

export async function exitCopyMode(tmux: TmuxServer, pane: PaneInfo): Promise<void> {
  if (pane.inMode) await tmux.guarded([["send-keys", "-X", "-t", pane.paneId, "cancel"]]);
}

/** Copy-mode facts: whether the pane is in a mode and how far up it is scrolled. */
export async function modeState(tmux: TmuxServer, pane: PaneInfo): Promise<{ inMode: boolean; scroll: number }> {
  const [line] = await tmux.run("display-message", "-p", "-t", pane.paneId, "#{pane_in_mode}\x1f#{scroll_position}");
  const [inMode, scroll] = (line ?? "").split("\x1f");
  return { inMode: inMode === "1", scroll: Number(scroll) || 0 };
}
