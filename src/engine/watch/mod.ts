/**
 * Watch: event-driven waits on a pane's output and process state. Text waits, multi-trigger
 * watches, incremental reads with cursors, REPL turns (the foreground process: the facts room).
 */
export {
  type OutputMatch,
  type PaneJob,
  type PaneJobs,
  type Since,
  type WaitDeps,
  waitForOutput,
} from "./wait_output.ts";
export { MAX_WAIT_MS, type WaitEnd, type WaitOptions } from "./wait_loop.ts";
export { type CompilePattern, DEFAULT_TRIGGERS, type LineTest, parseTriggers, type Trigger } from "./triggers.ts";
export { type WatchDeps, watchPane, type WatchResult } from "./watch.ts";
export { captureSince, cursorNow, cursorStart, decodeCursor, type SinceResult } from "./cursor.ts";
export { type ReplDeps, type ReplTurn, runInRepl } from "./repl.ts";
export { awaitReplPrompt } from "./repl_ready.ts";
export { type PaneEnd, PaneEnds, type PaneExit } from "./pane_ends.ts";
export {
  type PaneState,
  type PaneStatus,
  paneStatus,
  type ProbeOptions,
  probePaneStatus,
  type StatusFacts,
  type StatusPane,
  statusText,
} from "./pane_status.ts";
export { type AgentTurn, type AgentTurnDeps, runAgentTurn } from "./agent_turn.ts";
export { type AgentStatus } from "./agent_status.ts";
