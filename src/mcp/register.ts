import type * as z from "zod";
import type { CallToolResult, McpServer, ServerContext } from "./sdk.ts";
import type { ToolDefinition } from "./define.ts";
import type { App } from "../app.ts";
import { ToolContext } from "./context.ts";
import { ToolError, toToolError } from "../engine/errors.ts";
import { agentOf } from "../engine/panes/mod.ts";
import { scrubErrorText } from "../safety/scrub.ts";
import { ImageResult } from "./results.ts";
import { appOnHost, hostPaneId, routeHost, tagResult, whileLinked } from "./hosts.ts";
import { FAN_OUT } from "./fan_out.ts";
import { askThrough } from "./ask.ts";
import { AskRound, type AskState, InputNeeded } from "./ask_round.ts";
import { type CallDeadline, callDeadline, startDeadline } from "./deadlines.ts";
import { type Entry, ToolTable } from "./tool_table.ts";
import { connectionUnit, type Unit } from "./unit.ts";
import { canAskForm } from "./capabilities.ts";
import { WORKSPACE_ARG, WORKSPACE_META } from "./workspace_handles.ts";
import type { RequestStateCodec } from "./sdk.ts";
import { declaresTasks, TASK_TOOLS, type TaskTable } from "./tasks.ts";

export { selected } from "./tool_table.ts";

// Defensive bounds on what a single response may carry; a larger result is an error naming the bound.
export const MAX_RESPONSE_CHARS = 1_000_000;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Calls the server refused for safety, worth a log line (not mistakes like a wrong pane id). */
const REFUSALS = new Set([
  "TIER_DENIED",
  "PROTECTED_TARGET",
  "POLICY_DENIED",
  "POLICY_DECLINED",
  "POLICY_ASK_UNAVAILABLE",
]);

export interface CallContext {
  /** The connection the calls come from (tags the events a call causes). */
  origin?: string;
  onRefused?(tool: string, error: ToolError): void;
  /** What the server serves (default: a 2025-era connection over `app`). */
  unit?: Unit;
  /** 2026 era: seals the policy's question between a call's rounds. */
  states?: RequestStateCodec<AskState>;
  /** 2026 era, with the Tasks extension: long calls become tasks after `taskAfterMs`. */
  tasks?: { table: TaskTable; afterMs: number };
}

/**
 * Serves tools/list and tools/call for the tools of the configured profile, with the SDK's
 * supported request-handler API. Each call passes: tier gate → argument validation (the tool's
 * own zod schema) → handler → error mapping → audit line (written before the result returns).
 * Every error text is scrubbed of payload values, since validation messages can quote them.
 * Returns the names (without prefix) of the tools it lists. `context` tags calls with their
 * connection and hears of refused calls (TIER_DENIED, PROTECTED_TARGET).
 */
export function registerTools(
  server: McpServer,
  app: App,
  tools: readonly ToolDefinition[] | ToolTable,
  context: CallContext = {},
): string[] {
  const table = tools instanceof ToolTable ? tools : new ToolTable(app.config, tools);
  const unit = context.unit ?? connectionUnit("legacy", server, app, context.origin ?? "", (ctx) => sessionOf(ctx));
  server.server.setRequestHandler("tools/list", () => ({ tools: table.list(unit.listsWorkspace) }));
  server.server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const entry = table.entries.get(name);
    if (!entry) return errorResult(new ToolError("INVALID_ARGUMENT", `Tool ${name} not found`), args);
    let caller;
    try {
      caller = await unit.caller(ctx, args);
    } catch (thrown) {
      return errorResult(toToolError(thrown), args); // a handle that does not verify: nothing runs
    }
    try {
      const result = await callIn(server, caller, unit, name, entry, withoutHandle(args), ctx, context);
      return caller.workspace === undefined ? result : handBack(result, caller.workspace);
    } finally {
      caller.release();
    }
  });
  return table.listedNames;
}

/** One call in its caller's scope: the command policy asks the person behind this call. */
async function callIn(
  server: McpServer,
  caller: Awaited<ReturnType<Unit["caller"]>>,
  unit: Unit,
  name: string,
  entry: Entry,
  args: Record<string, unknown>,
  ctx: ServerContext,
  context: CallContext,
): Promise<CallToolResult> {
  const agent = agentOf(clientInfo(server, ctx))?.name ?? null;
  if (unit.era === "legacy") {
    const scope = { tool: entry.tool.name, ask: askThrough(server, ctx), allowed: caller.allowed, agent };
    return await caller.app.gate.within(scope, () => callTool(caller.app, name, entry, args, ctx, context));
  }
  let round: AskRound;
  try {
    round = await AskRound.open(context.states!, ctx, { tool: name, args, who: caller.who, by: caller.by });
  } catch (thrown) {
    return errorResult(toToolError(thrown), args);
  }
  const scope = { tool: entry.tool.name, ask: canAskForm(ctx) ? round.ask() : null, allowed: caller.allowed, agent };
  const protocol = String(ctx.mcpReq.envelope?.["io.modelcontextprotocol/protocolVersion" as never] ?? "2026-07-28");
  const run = (signal: AbortSignal, answered?: () => boolean) =>
    caller.app.gate.within(
      scope,
      () => callTool(caller.app, name, entry, args, ctx, context, { signal, answered, protocol }),
    );
  const asTask = context.tasks && TASK_TOOLS.has(entry.tool.name) && declaresTasks(ctx) ? context.tasks : null;
  try {
    return asTask
      ? await unit.taskOwner(ctx).then((who) => runAsTask(asTask, who, run, ctx))
      : await run(ctx.mcpReq.signal);
  } catch (thrown) {
    if (thrown instanceof InputNeeded) return await round.inputRequired(thrown);
    throw thrown;
  }
}

/**
 * A long call under the Tasks extension: answered as usual when it ends within `afterMs`, else as
 * a task that runs on to its own deadline. Only `tasks/cancel` stops it once it is a task (the
 * request that started it has been answered).
 */
async function runAsTask(
  tasks: { table: TaskTable; afterMs: number },
  who: string,
  run: (signal: AbortSignal, answered: () => boolean) => Promise<CallToolResult>,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const abort = new AbortController();
  const follow = () => abort.abort(ctx.mcpReq.signal.reason);
  ctx.mcpReq.signal.addEventListener("abort", follow, { once: true });
  let detached = false;
  const work = run(abort.signal, () => detached);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due = new Promise<"task">((resolve) => timer = setTimeout(() => resolve("task"), tasks.afterMs));
  try {
    const first = await Promise.race([work, due]);
    if (first !== "task") return first;
    detached = true;
    ctx.mcpReq.signal.removeEventListener("abort", follow);
    return tasks.table.start(who, work, abort);
  } finally {
    clearTimeout(timer);
    ctx.mcpReq.signal.removeEventListener("abort", follow);
  }
}

/** The client of this call: the request's envelope (2026) or the connection's initialize (2025). */
function clientInfo(server: McpServer, ctx: ServerContext) {
  return (ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientInfo" as never] as { name?: string } | undefined) ??
    server.server.getClientVersion();
}

function sessionOf(ctx: ServerContext): string | null {
  return ctx.sessionId ? `MCP session ${ctx.sessionId}` : null;
}

/** The arguments a tool sees: the workspace handle is the transport's, not the tool's. */
function withoutHandle(args: Record<string, unknown>): Record<string, unknown> {
  if (!(WORKSPACE_ARG in args)) return args;
  const { [WORKSPACE_ARG]: _handle, ...rest } = args;
  return rest;
}

/** Every 2026-era HTTP result hands the workspace handle back: in its fields (the model reads them) and `_meta`. */
function handBack(result: CallToolResult, workspace: string): CallToolResult {
  const meta = { ...result._meta, [WORKSPACE_META]: workspace };
  const kind = (result as { resultType?: string }).resultType;
  if (kind !== undefined && kind !== "complete") return { ...result, _meta: meta };
  if (result.isError || !result.structuredContent) {
    const content = [...result.content, { type: "text" as const, text: `workspace: ${workspace}` }];
    return { ...result, content, _meta: meta };
  }
  const fields = { ...result.structuredContent, [WORKSPACE_ARG]: workspace };
  const [first, ...rest] = result.content;
  const text = first?.type === "text" ? [{ type: "text" as const, text: JSON.stringify(fields) }] : [];
  return {
    ...result,
    structuredContent: fields,
    content: [...text, ...(first?.type === "text" ? rest : result.content)],
    _meta: meta,
  };
}

const encoder = new TextEncoder();

async function callTool(
  app: App,
  name: string,
  { tool, schema, allowed }: Entry,
  args: Record<string, unknown>,
  request: ServerContext,
  context: CallContext,
  /** The call's own signal (a task's outlives its request), whether its request has been answered, its era's revision. */
  { signal = request.mcpReq.signal, answered = () => false, protocol }: {
    signal?: AbortSignal;
    answered?: () => boolean;
    protocol?: string;
  } = {},
): Promise<CallToolResult> {
  const started = performance.now();
  const token = request.mcpReq._meta?.progressToken;
  const contextOn = (host: string, on = signal) =>
    new ToolContext(
      appOnHost(app, host),
      on,
      async (progress, total, message) => {
        // A call that became a task has been answered: its progress has no request to go with.
        if (token === undefined || answered()) return;
        await request.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: token, progress, total, message },
        });
      },
      context.origin,
      started,
    );
  let ctx = contextOn("local");
  let host = "local";
  let result: CallToolResult;
  let outcome: "ok" | "error" | "denied" = "ok";
  let code: string | undefined;
  try {
    if (!allowed) {
      outcome = "denied";
      throw new ToolError(
        "TIER_DENIED",
        `Tool "${name}" needs safety tier "${tool.tier}"; this server runs at "${app.config.safety}"`,
        `Restart tmuxwright with --safety ${tool.tier} (or TMUXWRIGHT_SAFETY=${tool.tier}) to allow it.`,
      );
    }
    const route = routeHost(app, args);
    host = route.host;
    const parsed = schema.safeParse(route.args);
    if (!parsed.success) throw invalidArguments(name, parsed.error);
    const data = parsed.data as Record<string, unknown>;
    const deadline = callDeadline(tool.name, data);
    const timer = startDeadline(deadline, signal);
    try {
      const work = (async () => {
        if (route.unrouted && app.hosts.hasRemote && FAN_OUT.has(tool.name)) {
          const runOn = (on: string, override = {}) =>
            tool.handler({ ...data, ...override } as never, contextOn(on, timer.signal));
          return okResult(await FAN_OUT.get(tool.name)!(app, runOn, data));
        }
        const value = await whileLinked(app, host, timer.signal, (signal) => {
          ctx = contextOn(host, signal);
          return tool.handler(parsed.data as never, ctx);
        });
        return okResult(app.hosts.hasRemote ? tagResult(value, host) : value);
      })();
      // Answered at the deadline whatever still runs; a late end of the work is only logged.
      const late = timer.due.then(() => {
        work.catch((error) => {
          if (toToolError(error).code === "INTERNAL") console.error(`[tmuxwright] ${name} failed late:`, error);
        });
        throw lateError(app, host, name, deadline);
      });
      result = await Promise.race([work, late]);
    } finally {
      timer.stop();
    }
  } catch (thrown) {
    if (thrown instanceof InputNeeded) throw thrown; // the question goes to the person; the call comes back
    const error = toToolError(thrown);
    if (error.code === "INTERNAL") console.error(`[tmuxwright] ${name} failed:`, thrown);
    result = errorResult(error, args);
    if (outcome === "ok") outcome = "error";
    code = error.code;
    if (REFUSALS.has(error.code)) context.onRefused?.(name, error);
  }
  const sent = result.content.reduce(
    (n, block) =>
      n + (block.type === "text" ? encoder.encode(block.text).length : 0) +
      (block.type === "image" ? block.data.length : 0),
    0,
  );
  await app.audit.record({
    tool: name,
    paneId: hostPaneId(host, ctx.paneId) ?? (typeof args.pane_id === "string" ? args.pane_id : null),
    host,
    args,
    outcome,
    error: code,
    durationMs: performance.now() - started,
    outputBytes: outcome === "denied" ? 0 : sent,
    protocol,
  });
  return result;
}

/**
 * A call still running when its answer is due: what is known of the slow step. A wait that ended
 * on the deadline names its own step (stoppedBy); this is for a step that did not end.
 */
function lateError(app: App, host: string, tool: string, deadline: CallDeadline): ToolError {
  const tmux = appOnHost(app, host).tmux;
  const unanswered = tmux.unansweredMs;
  const where = host === "local" ? "tmux" : `tmux on host ${host}`;
  const step = unanswered >= 1_000
    ? `${where} has left a command unanswered for ${Math.round(unanswered)} ms`
    : "its steps were still running (a loaded machine: tmux, the shell or this server is slow to get CPU)";
  const bound = deadline.from === "timeout_ms" ? "timeout_ms + 1 s" : `the bound of ${tool}`;
  return new ToolError(
    "TIMEOUT",
    `Cannot answer ${tool} within its deadline (${deadline.answerByMs} ms, ${bound}): ${step}; what it started goes on`,
    "Retry the call; list_panes shows the panes it may have made.",
  );
}

/** One line per problem, naming the argument; the values themselves are scrubbed later. */
function invalidArguments(tool: string, error: z.ZodError): ToolError {
  const problems = error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`);
  return new ToolError(
    "INVALID_ARGUMENT",
    `Invalid arguments for tool ${tool}: ${problems.join("; ")}`,
    "Check the tool's input schema in tools/list.",
  );
}

/** Structured fields as structured content and JSON text; an image result adds MCP image content after the text. */
export function okResult(value: Record<string, unknown> | ImageResult): CallToolResult {
  const fields = value instanceof ImageResult ? value.fields : value;
  let text = JSON.stringify(fields);
  const image = value instanceof ImageResult ? value : null;
  if (text.length > MAX_RESPONSE_CHARS || (image && image.data.length > MAX_IMAGE_BYTES)) {
    text = JSON.stringify({
      error: "RESPONSE_TOO_LARGE",
      ...(image ? { limit_image_bytes: MAX_IMAGE_BYTES } : { limit_chars: MAX_RESPONSE_CHARS }),
      hint: image ? "Ask for scale 1, or format svg or text." : "Ask for fewer lines.",
    });
    return { content: [{ type: "text", text }], isError: true };
  }
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (image) content.push({ type: "image", data: image.data.toBase64(), mimeType: image.mimeType });
  return { content, structuredContent: fields };
}

/** The agent-facing error text: never echoes payload arguments (text, keys, command, input, env values). */
export function errorResult(error: ToolError, args: Record<string, unknown> = {}): CallToolResult {
  const text = scrubErrorText(`${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ""}`, args);
  return { content: [{ type: "text", text }], isError: true };
}
