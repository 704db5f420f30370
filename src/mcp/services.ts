import type { App } from "../app.ts";
import { createRequestStateCodec, type RequestStateCodec } from "./sdk.ts";
import { ALL_TOOLS } from "./tools/mod.ts";
import { ToolTable } from "./tool_table.ts";
import { ProcessKey } from "./process_key.ts";
import { TaskTable } from "./tasks.ts";
import { WorkspaceHandles, type WorkspaceHandlesOptions } from "./workspace_handles.ts";
import type { AskState } from "./ask_round.ts";

/** How long a 2026-era request waits for a long call before answering it as a task (under Claude Code's 60 s). */
export const TASK_AFTER_MS = 20_000;
/** TMUXWRIGHT_TASK_AFTER_MS: how long a Tasks-aware 2026 call runs before it is answered as a task. */
export function taskAfter(value: string | undefined): number | undefined {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 100 ? ms : undefined;
}

/** How long the policy's question may wait for its answer between a call's rounds. */
const ASK_STATE_SECONDS = 10 * 60;

/**
 * What the MCP layer keeps for the life of the process, shared by every MCP server it makes (one
 * per stdio connection or HTTP session, one per 2026-era HTTP request): the tool table, the
 * process key, the tasks, and over HTTP the workspaces of 2026-era callers.
 */
export class McpServices {
  readonly key = new ProcessKey();
  readonly tools: ToolTable;
  readonly tasks: TaskTable;
  readonly states: RequestStateCodec<AskState>;
  readonly handles: WorkspaceHandles | null;

  constructor(
    readonly app: App,
    readonly options: { taskAfterMs?: number; workspaces?: WorkspaceHandlesOptions } = {},
  ) {
    this.tools = new ToolTable(app.config, ALL_TOOLS);
    this.tasks = new TaskTable(() => this.key.randomId());
    this.states = createRequestStateCodec<AskState>({ key: this.key.stateKey, ttlSeconds: ASK_STATE_SECONDS });
    this.handles = options.workspaces ? new WorkspaceHandles(app, this.key, options.workspaces) : null;
  }

  get taskAfterMs(): number {
    return this.options.taskAfterMs ?? TASK_AFTER_MS;
  }

  close(): void {
    this.handles?.close();
  }
}
