/**
 * Agents: which agent CLI (Claude Code, Codex CLI, Gemini CLI) runs in a pane and how to read it:
 * how it is recognised (the foreground command line), how input reaches it, what its screen and
 * title say (working, idle waiting for its person, asking them), how its reply is cut out of its
 * frame, and Claude Code's hooks in the panes tmuxwright starts. Depends on `facts` (types) only.
 */
export {
  type AgentActivity,
  type AgentCli,
  type AgentId,
  echoes,
  type ScreenReading,
  type ScreenReply,
} from "./cli.ts";
export { AGENT_CLIS, agentFor, agentIn, type AgentInPane } from "./known.ts";
export {
  claudeHookPaths,
  claudeHooksEnv,
  CLI_STATE_OPTION,
  hookActivity,
  type HookEvent,
  prepareClaudeHooks,
} from "./claude_hooks.ts";
export { ClaudeEvents, type HookRecord } from "./hook_events.ts";
export { type AgentLook, lookAtAgent } from "./look.ts";
