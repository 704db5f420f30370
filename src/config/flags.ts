import { TOOL_GROUP_HELP, TOOL_GROUPS } from "./tools.ts";

/** Every flag, its environment variable and its help line: the single source for parsing and --help. */
export const FLAGS = {
  tools: {
    env: "TMUXWRIGHT_TOOLS",
    type: "string",
    help: `core | agent | all (default agent), or a comma list of profiles and groups: ${TOOL_GROUPS.join(",")}`,
  },
  "tool-prefix": { env: "TMUXWRIGHT_TOOL_PREFIX", type: "string", help: "prefix for every tool name, e.g. tmux_" },
  safety: { env: "TMUXWRIGHT_SAFETY", type: "string", help: "readonly | mutating | destructive (default mutating)" },
  socket: { env: "TMUXWRIGHT_SOCKET", type: "string", help: "tmux socket name (tmux -L)" },
  "socket-path": { env: "TMUXWRIGHT_SOCKET_PATH", type: "string", help: "tmux socket path (tmux -S)" },
  isolated: {
    env: "TMUXWRIGHT_ISOLATED",
    type: "boolean",
    help: "private tmux server for this process, removed on exit",
  },
  keep: { env: "TMUXWRIGHT_KEEP", type: "boolean", help: "keep the workspace session when the server exits" },
  "state-dir": {
    env: "TMUXWRIGHT_STATE_DIR",
    type: "string",
    help: "logs and state (default $XDG_STATE_HOME/tmuxwright)",
  },
  "tmux-config": {
    env: "TMUXWRIGHT_TMUX_CONFIG",
    type: "string",
    help: "config file for a tmux server this process starts",
  },
  "process-facts": {
    env: "TMUXWRIGHT_PROCESS_FACTS",
    type: "string",
    help: "proc | ps: where process facts come from (default proc where /proc is readable, else ps)",
  },
  "history-limit": {
    env: "TMUXWRIGHT_HISTORY_LIMIT",
    type: "string",
    help: "scrollback lines per owned pane (default 50000)",
  },
  "log-max-bytes": {
    env: "TMUXWRIGHT_LOG_MAX_BYTES",
    type: "string",
    help: "rotate a pane's log file at this size, e.g. 64M (default 64M)",
  },
  "log-keep": { env: "TMUXWRIGHT_LOG_KEEP", type: "string", help: "rotated log files kept per pane (default 3)" },
  "log-retention-days": {
    env: "TMUXWRIGHT_LOG_RETENTION_DAYS",
    type: "string",
    help: "days a log is kept after its last write (default 7)",
  },
  http: {
    env: "TMUXWRIGHT_HTTP",
    type: "string",
    help: "serve MCP at /mcp and the tmux bridge at /v1/tmux on [HOST:]PORT instead of stdio",
  },
  "shared-workspace": {
    env: "TMUXWRIGHT_SHARED_WORKSPACE",
    type: "boolean",
    help: "with --http: every MCP session uses one shared workspace (default: one each)",
  },
  "allow-remote": {
    env: "TMUXWRIGHT_ALLOW_REMOTE",
    type: "boolean",
    help: "with --http: accept non-loopback clients (needs TMUX_BRIDGE_TOKEN)",
  },
  "tls-cert": {
    env: "TMUXWRIGHT_TLS_CERT",
    type: "string",
    help: "with --http: serve HTTPS with this PEM certificate",
  },
  "tls-key": { env: "TMUXWRIGHT_TLS_KEY", type: "string", help: "with --http: the certificate's PEM private key" },
  policy: {
    env: "TMUXWRIGHT_POLICY",
    type: "string",
    help: "command policy FILE (JSON: default, deny, ask, allow rules on shell commands; docs/policy.md)",
  },
  audit: { env: "TMUX_DEBUG_AUDIT", type: "string", help: "append one JSON line per tool call to FILE" },
  "audit-full": { env: "TMUX_DEBUG_AUDIT_FULL", type: "string", help: "also write every capture to DIR" },
  "audit-payloads": {
    env: "TMUXWRIGHT_AUDIT_PAYLOADS",
    type: "boolean",
    help: "log payloads in clear instead of hashes",
  },
  host: {
    env: "TMUXWRIGHT_HOSTS",
    type: "string",
    multiple: true,
    help: "NAME=DESTINATION: a remote host agents may use as NAME, reached with ssh DESTINATION, or a container " +
      "with podman://CONTAINER or docker://CONTAINER (repeatable; env: NAME=DEST,NAME=DEST); with doctor/attach, " +
      "NAME alone picks the host",
  },
  "pane-env": {
    env: "TMUXWRIGHT_PANE_ENV",
    type: "string",
    multiple: true,
    help: "KEY=VALUE for every pane created for agents; KEY= drops a default (PAGER=cat …) (repeatable; " +
      "env: KEY=VAL,KEY=VAL, \\, for a comma)",
  },
  "ssh-config": { env: "TMUXWRIGHT_SSH_CONFIG", type: "string", help: "ssh configuration file for --host (ssh -F)" },
  "host-lease": {
    env: "TMUXWRIGHT_HOST_LEASE",
    type: "string",
    help: "seconds a remote host keeps this server's panes while its link is down (default 600)",
  },
  "reap-every": {
    env: "TMUXWRIGHT_REAP_EVERY",
    type: "string",
    help: "seconds between a running server's looks for workspaces of servers gone since it started (default 60)",
  },
  channel: {
    env: "TMUXWRIGHT_CHANNEL",
    type: "boolean",
    help: "push watch_pane and start_process events to Claude Code (notifications/claude/channel)",
  },
} as const;

export type FlagName = keyof typeof FLAGS;

/** `--help`: commands, every flag with its environment variable, and the tool groups. */
export function helpText(): string {
  const lines = [
    "tmuxwright: an MCP server that gives AI agents tmux",
    "",
    "usage: tmuxwright [serve] [flags]   serve MCP over stdio (default); with --http [HOST:]PORT over HTTP",
    "       tmuxwright bridge [flags]    the tmux bridge v1 for browser add-ins (env: HOST, PORT, TMUX_BRIDGE_*;",
    "                                    flags: --https, --http, --tls-cert, --tls-key, --allow-remote; see docs/http.md)",
    "       tmuxwright attach [WORKSPACE] [flags]",
    "                                    watch an agent's workspace live (read-only): the newest live one,",
    "                                    or WORKSPACE (a server pid or tmuxwright-<pid>); --list lists them",
    "       tmuxwright doctor [flags]    check tmux, socket and state directory; print client config",
    "                                    --host NAME: check that host's link (ssh and host key, or the",
    "                                    container's runtime) and its tmux",
    "       tmuxwright attach --host NAME [WORKSPACE]",
    "                                    watch a workspace on a remote host (your ssh or exec -it, read-only)",
    "",
    "flags (every flag has an environment variable; flags win):",
  ];
  for (const [name, flag] of Object.entries(FLAGS)) {
    lines.push(`  --${name.padEnd(16)} ${flag.help} [${flag.env}]`);
  }
  lines.push("  --help, -h         this help", "  --version, -V      print the version", "", "tool groups (--tools):");
  for (const [group, help] of Object.entries(TOOL_GROUP_HELP)) lines.push(`  ${group.padEnd(10)} ${help}`);
  return lines.join("\n");
}
