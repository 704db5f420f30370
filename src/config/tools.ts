import { ConfigError } from "./errors.ts";

export const PROFILES = ["core", "agent", "all"] as const;
export type Profile = typeof PROFILES[number];
export const TIERS = ["readonly", "mutating", "destructive"] as const;
export type Tier = typeof TIERS[number];
/** Capability groups for hand-picked tool sets (`--tools sessions,windows`); every tool belongs to one. */
export const TOOL_GROUPS = [
  "panes",
  "input",
  "screen",
  "exec",
  "watch",
  "logs",
  "sessions",
  "windows",
  "buffers",
  "channels",
  "server",
  "settings",
  "display",
] as const;
export type ToolGroup = typeof TOOL_GROUPS[number];
/** What each group holds, for --help and the README. */
export const TOOL_GROUP_HELP: Record<ToolGroup, string> = {
  panes:
    "create, list, split, kill panes; pane info, select, swap, resize, respawn, title, clear, pipe_pane, copy mode",
  input: "send_keys, paste_text",
  screen: "capture_pane, snapshot_pane",
  exec: "execute_command, start_process, stop_process",
  watch: "wait_for_text, watch_pane, pane_state, capture_since, run_in_repl",
  logs: "read_logs, search_panes",
  sessions: "list, create, kill, rename sessions",
  windows: "list, create, kill, rename, select, layout, resize, move windows",
  buffers: "load, paste, show, delete this server's paste buffers",
  channels: "wait_for_channel, signal_channel (tmux wait-for)",
  server: "list_servers, get_server_info, kill_server",
  settings: "show/set options and environment, show_hooks",
  display: "display_message, write_to_display, notify",
};

/**
 * `--tools`: one profile (`core`, `agent`, `all`) or a comma list of profiles and groups, e.g.
 * `agent,sessions,windows`. A list keeps the largest profile it names plus every named group.
 */
export function parseToolSelection(value: string): { profile: Profile | null; groups: ToolGroup[] } {
  const items = value.split(",").map((item) => item.trim()).filter((item) => item !== "");
  const unknown = items.filter((item) => ![...PROFILES, ...TOOL_GROUPS].includes(item as never));
  if (items.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      `Invalid --tools "${value}": expected one of ${PROFILES.join(", ")}, or a comma list of those and the groups ` +
        TOOL_GROUPS.join(", "),
    );
  }
  const profiles = PROFILES.filter((p) => items.includes(p));
  return {
    profile: profiles.length > 0 ? profiles[profiles.length - 1] : null,
    groups: TOOL_GROUPS.filter((g) => items.includes(g)),
  };
}
