import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { decodeMarks, type ShellMarks } from "../integration/mod.ts";
import { type AgentName, decodeAgent } from "./agent_name.ts";

/** The pane fields every listing reads; one template, one strict parser. */
export const PANE_FIELDS = {
  paneId: "pane_id",
  windowId: "window_id",
  sessionId: "session_id",
  sessionName: "session_name",
  windowIndex: "window_index",
  paneIndex: "pane_index",
  name: "@tmuxwright_name",
  owner: "@tmuxwright_owner",
  instance: "@tmuxwright_instance",
  workspace: "@tmuxwright_workspace",
  hub: "@tmuxwright_hub",
  log: "@tmuxwright_log",
  marks: "@tmuxwright_marks",
  shellSince: "@tmuxwright_shell_since",
  agent: "@tmuxwright_agent",
  top: "@tmuxwright_top",
  title: "pane_title",
  dead: "pane_dead",
  deadStatus: "pane_dead_status",
  deadSignal: "pane_dead_signal",
  command: "pane_current_command",
  pid: "pane_pid",
  storedPid: "@tmuxwright_pid",
  cwd: "pane_current_path",
  width: "pane_width",
  height: "pane_height",
  historySize: "history_size",
  active: "pane_active",
  inMode: "pane_in_mode",
  piped: "pane_pipe",
} as const;

export const PANE_TEMPLATE = formatTemplate(PANE_FIELDS);

export interface PaneInfo {
  paneId: string;
  windowId: string;
  sessionId: string;
  sessionName: string;
  windowIndex: number;
  paneIndex: number;
  name: string | null;
  ownerPid: number | null;
  /** The tmuxwright server process that created the pane (names belong to it); null for others' panes. */
  instance: string | null;
  /** That server's workspace session. */
  workspace: string | null;
  /** The hub pane that keeps a workspace session alive. */
  hub: boolean;
  logPath: string | null;
  /** The shell this server started in the pane prints marks (shell integration); null otherwise. */
  marks: ShellMarks | null;
  /** When this server started the user's shell in the pane (epoch ms); null for panes started with a command. */
  shellSince: number | null;
  /** The MCP client whose call created the pane (see agent_name.ts); null for others' panes and older ones. */
  agent: AgentName | null;
  /** The row its program started on: 1 for a pane started with a command (its gate steps down a row, gate.ts). */
  top: number;
  title: string;
  dead: boolean;
  /** Exit status; 128+N when the process was killed by signal N (as shells report it). */
  exitCode: number | null;
  exitSignal: number | null;
  /** tmux saw the tty close but has not reaped the process yet (see `queryPanes`). */
  closing: boolean;
  command: string;
  pid: number | null;
  cwd: string;
  width: number;
  height: number;
  historySize: number;
  /** The window's active pane (where a split or a keystroke from a person goes). */
  active: boolean;
  /** In copy mode (or another tmux mode). */
  inMode: boolean;
  /** Its output goes to a pipe-pane command (ours or anyone's). */
  piped: boolean;
}

/** Pane names are stored URI-encoded in a pane option so any text survives tmux's line-based output. */
export function encodeName(name: string): string {
  return encodeURIComponent(name);
}

function decodeName(stored: string): string | null {
  if (stored === "") return null;
  try {
    return decodeURIComponent(stored);
  } catch {
    return stored;
  }
}

function toInt(value: string): number | null {
  return /^-?\d+$/.test(value) ? Number(value) : null;
}

export function parsePanes(lines: readonly string[]): PaneInfo[] {
  return parseRows(PANE_FIELDS, lines).map((row) => {
    // tmux marks a pane dead when its tty closes, slightly before it has reaped the process;
    // until the status is known the pane still counts as running.
    const status = toInt(row.deadStatus);
    const signal = toInt(row.deadSignal);
    const dead = row.dead === "1" && (status !== null || signal !== null);
    return {
      paneId: row.paneId,
      windowId: row.windowId,
      sessionId: row.sessionId,
      sessionName: row.sessionName,
      windowIndex: Number(row.windowIndex),
      paneIndex: Number(row.paneIndex),
      name: decodeName(row.name),
      ownerPid: toInt(row.owner),
      instance: row.instance || null,
      workspace: row.workspace || null,
      hub: row.hub === "1",
      logPath: row.log === "" ? null : decodeName(row.log),
      marks: decodeMarks(row.marks),
      shellSince: toInt(row.shellSince),
      agent: decodeAgent(row.agent),
      top: toInt(row.top) ?? 0,
      title: row.title,
      dead,
      closing: row.dead === "1" && !dead,
      exitCode: dead ? (status ?? 128 + signal!) : null,
      exitSignal: dead ? signal : null,
      command: row.command,
      // tmux may not report an exited pane's pid (master, next-3.8): an owned pane's is kept from its start.
      pid: toInt(row.pid) ?? toInt(row.storedPid),
      cwd: row.cwd,
      width: Number(row.width),
      height: Number(row.height),
      historySize: Number(row.historySize),
      active: row.active === "1",
      inMode: row.inMode === "1",
      piped: row.piped === "1",
    };
  });
}

/**
 * Runs a pane listing command and parses it. Under load tmux 3.3 sometimes leaves an exited
 * pane's process a zombie with no exit status until some other child of the server exits (its
 * SIGCHLD was missed). Seeing such a pane, we make tmux run a no-op job: its SIGCHLD makes the
 * server reap every exited child, and the listing is read again.
 */
export async function queryPanes(tmux: TmuxServer, args: readonly string[]): Promise<PaneInfo[]> {
  const panes = parsePanes(await tmux.run(...args));
  if (!panes.some((p) => p.closing)) return panes;
  await tmux.oneShot("run-shell", ":").catch(() => {});
  return parsePanes(await tmux.run(...args));
}

/** Every pane on the server (`-a`), or the panes of one session (`-s -t`). */
export function listPanes(tmux: TmuxServer, sessionTarget?: string): Promise<PaneInfo[]> {
  const args = sessionTarget
    ? ["list-panes", "-s", "-t", sessionTarget, "-F", PANE_TEMPLATE]
    : ["list-panes", "-a", "-F", PANE_TEMPLATE];
  return queryPanes(tmux, args);
}
