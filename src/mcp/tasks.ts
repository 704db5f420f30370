import * as z from "zod";
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type McpServer,
  MissingRequiredClientCapabilityError,
  type ServerContext,
} from "./sdk.ts";
import { ProtocolError } from "./protocol_errors.ts";

/** The Tasks extension (SEP-2663) as the 2026-07-28 revision names it. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** The tools whose long calls become tasks. */
export const TASK_TOOLS = new Set(["execute_command", "start_process"]);
/** How often a client should poll, and how long an ended task's result is kept. */
const POLL_INTERVAL_MS = 500;
const KEEP_MS = 10 * 60_000;
const INVALID_PARAMS = -32602;

type Status = "working" | "completed" | "failed" | "cancelled";

interface TaskRecord {
  readonly id: string;
  /** The caller it belongs to (principal over HTTP, connection on stdio): no one else can see or cancel it. */
  readonly who: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  status: Status;
  result?: CallToolResult;
  error?: { code: number; message: string };
  readonly abort: AbortController;
  endedAt?: number;
}

/** Whether the client declared the Tasks extension in this request's envelope. */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * The tasks of long `execute_command` and `start_process` calls (docs/design/mcp_2026.md), in
 * memory: created when a call outlives the client's patience, polled with `tasks/get`, ended with
 * the call's own result, cancelled with `tasks/cancel` (the call's signal: Ctrl-C to its command).
 */
export class TaskTable {
  readonly #tasks = new Map<string, TaskRecord>();

  constructor(private readonly newId: () => string) {}

  /** Follows `work` as a task of `who`; `abort` cancels it. Returns the `CreateTaskResult`. */
  start(who: string, work: Promise<CallToolResult>, abort: AbortController): CallToolResult {
    this.#sweep();
    const now = new Date().toISOString();
    const task: TaskRecord = { id: this.newId(), who, createdAt: now, lastUpdatedAt: now, status: "working", abort };
    this.#tasks.set(task.id, task);
    work.then(
      (result) => this.#end(task, abort.signal.aborted ? "cancelled" : "completed", { result }),
      (error) => this.#end(task, "failed", { error: { code: -32603, message: String(error?.message ?? error) } }),
    );
    return { resultType: "task", ...this.#wire(task) } as unknown as CallToolResult;
  }

  /** `tasks/get`, `tasks/cancel` and `tasks/update` for one MCP server, its callers told apart by `whoOf`. */
  register(server: McpServer, whoOf: (ctx: ServerContext) => Promise<string>): void {
    const params = z.object({ taskId: z.string() });
    server.server.setRequestHandler("tasks/get", { params }, async ({ taskId }, ctx) => {
      const task = this.#find(taskId, await whoOf(ctx), ctx);
      return { resultType: "complete", ...this.#wire(task) };
    });
    server.server.setRequestHandler("tasks/cancel", { params }, async ({ taskId }, ctx) => {
      const task = this.#find(taskId, await whoOf(ctx), ctx);
      if (task.status === "working") task.abort.abort(new Error("the task was cancelled"));
      return { resultType: "complete" };
    });
    server.server.setRequestHandler("tasks/update", { params: params.passthrough() }, async ({ taskId }, ctx) => {
      this.#find(taskId, await whoOf(ctx), ctx);
      throw new ProtocolError(INVALID_PARAMS, `Task ${taskId} asks for no input: the policy's question comes first`);
    });
  }

  /** The task `id` of `who`, asked by a request that declared the extension (else -32021, as SEP-2663 says). */
  #find(id: string, who: string, ctx: ServerContext): TaskRecord {
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `The task methods need the ${TASKS_EXTENSION} extension in the request's client capabilities`,
      );
    }
    this.#sweep();
    const task = this.#tasks.get(id);
    if (!task || task.who !== who) throw new ProtocolError(INVALID_PARAMS, `No task ${JSON.stringify(id)} of yours`);
    return task;
  }

  #end(task: TaskRecord, status: Status, outcome: Pick<TaskRecord, "result" | "error">): void {
    task.status = status;
    Object.assign(task, outcome);
    task.lastUpdatedAt = new Date().toISOString();
    task.endedAt = performance.now();
  }

  #wire(task: TaskRecord): Record<string, unknown> {
    return {
      taskId: task.id,
      status: task.status,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: KEEP_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
      // The tool's own result, as a 2026-07-28 complete result.
      ...(task.status === "completed" ? { result: { ...task.result, resultType: "complete" } } : {}),
      ...(task.status === "failed" ? { error: task.error } : {}),
    };
  }

  #sweep(): void {
    const now = performance.now();
    for (const [id, task] of this.#tasks) {
      if (task.endedAt !== undefined && now - task.endedAt > KEEP_MS) this.#tasks.delete(id);
    }
  }
}
