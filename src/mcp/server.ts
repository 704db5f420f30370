import { McpServer } from "./sdk.ts";
import { NAME, VERSION } from "../version.ts";
import type { App } from "../app.ts";
import { registerTools } from "./register.ts";
import { ALL_TOOLS } from "./tools/mod.ts";

/** For the core profile, which has only the five pane tools. */
export const CORE_INSTRUCTIONS = [
  "tmux terminals for agents. Pattern: act, then read.",
  "- create_pane opens a pane; send_keys types text (Enter by default) or presses keys like C-c.",
  "- capture_pane reads the last lines of output, also of exited panes; list_panes shows status and exit codes.",
  "- pane_id accepts %N or the name given at create_pane. A human can watch live: see attach_command.",
].join("\n");

export const INSTRUCTIONS = [
  "tmux terminals for agents. Pattern: act, then wait, then read.",
  "- Run a command and get its output and exit code: execute_command.",
  "- Long-running programs: start_process (with `ready` regex) in a named pane, stop_process to end.",
  "- Interactive: send_keys (text, or keys like C-c) then wait_for_text / watch_pane, then capture_pane or capture_since.",
  "- pane_id accepts %N or the name given at create_pane. Exited panes keep their output.",
  "- A human can watch live: see attach_command in create_pane results.",
].join("\n");

/** A fresh MCP server over the shared app; no module state, one per transport connection. */
export function createServer(app: App): McpServer {
  const server = new McpServer(
    { name: NAME, title: "tmuxwright", version: VERSION },
    {
      capabilities: { logging: {}, tools: {} },
      instructions: app.config.tools === "core" ? CORE_INSTRUCTIONS : INSTRUCTIONS,
    },
  );
  registerTools(server, app, ALL_TOOLS);
  return server;
}
