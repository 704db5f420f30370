import {
  CallToolRequestSchema,
  type CallToolResult,
  type McpServer,
  type RequestHandlerExtra,
  type ServerNotification,
  type ServerRequest,
} from "./sdk.ts";
import type { ToolDefinition } from "./define.ts";
import { type Engine, tierAllows, ToolContext } from "./context.ts";
import { ToolError, toToolError } from "../engine/errors.ts";
import { type Profile, TIERS } from "../cli/config.ts";
import { paneRef } from "../safety/patterns.ts";
import { scrubErrorText } from "../safety/scrub.ts";

const PROFILE_RANK: Record<Profile, number> = { core: 0, agent: 1, all: 2 };
// Defensive bounds on what a single response may carry; a larger result is an error naming the bound.
export const MAX_RESPONSE_CHARS = 1_000_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Registers the tools of the configured profile. Each call passes: tier gate → handler →
 * error mapping → audit line (written before the result is returned).
 */
export function registerTools(server: McpServer, engine: Engine, tools: readonly ToolDefinition[]): void {
  const { config } = engine;
  const denied = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (!(TIERS as readonly unknown[]).includes(tool.tier)) {
      console.error(`[tmuxwright] tool ${tool.name} declares no valid safety tier; not exposed`);
      continue; // a tool without a tier is never exposed
    }
    if (PROFILE_RANK[tool.profile] > PROFILE_RANK[config.tools]) continue;
    const name = config.toolPrefix + tool.name;
    const registered = server.registerTool(name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      annotations: { title: tool.title, ...tool.annotations },
    }, (args: Record<string, unknown>, extra: Extra) => runTool(engine, tool, name, args, extra));
    if (!tierAllows(config.safety, tool.tier)) {
      registered.disable(); // hidden from tools/list
      denied.set(name, tool);
    }
  }
  wrapToolCalls(server, engine, denied);
}

/**
 * Wraps the SDK's tools/call handler: calls to tools above the tier get an answer naming the tier
 * and flag instead of "disabled", and the SDK's own errors (input validation, unknown tool) are
 * scrubbed like ours, since zod messages can quote argument names and values.
 */
function wrapToolCalls(server: McpServer, engine: Engine, denied: Map<string, ToolDefinition>): void {
  const handlers =
    (server.server as unknown as { _requestHandlers: Map<string, (req: unknown, extra: unknown) => unknown> })
      ._requestHandlers;
  const original = handlers.get("tools/call");
  if (!original) throw new Error("tools/call handler missing: registerTools must run after the SDK's registration");
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = denied.get(request.params.name);
    if (!tool) {
      const result = await original(request, extra) as CallToolResult;
      return result.isError ? scrubResult(result, request.params.arguments ?? {}) : result;
    }
    const started = performance.now();
    const error = new ToolError(
      "TIER_DENIED",
      `Tool "${request.params.name}" needs safety tier "${tool.tier}"; this server runs at "${engine.config.safety}"`,
      `Restart tmuxwright with --safety ${tool.tier} (or TMUXWRIGHT_SAFETY=${tool.tier}) to allow it.`,
    );
    const result = errorResult(error, request.params.arguments);
    await engine.audit.record({
      tool: request.params.name,
      paneId: null,
      args: (request.params.arguments ?? {}) as Record<string, unknown>,
      outcome: "denied",
      error: error.code,
      durationMs: performance.now() - started,
      outputBytes: 0,
    });
    return result;
  });
}

function scrubResult(result: CallToolResult, args: Record<string, unknown>): CallToolResult {
  return {
    ...result,
    content: result.content.map((c) => (c.type === "text" ? { ...c, text: scrubErrorText(c.text, args) } : c)),
  };
}

async function runTool(
  engine: Engine,
  tool: ToolDefinition,
  name: string,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const started = performance.now();
  const token = extra._meta?.progressToken;
  const ctx = new ToolContext(engine, extra.signal, async (progress, total, message) => {
    if (token === undefined) return;
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress, total, message },
    });
  });
  let result: CallToolResult;
  let outcome: "ok" | "error" = "ok";
  let code: string | undefined;
  try {
    const value = await tool.handler(args as never, ctx);
    result = okResult(value);
  } catch (thrown) {
    const error = toToolError(thrown);
    if (error.code === "INTERNAL") console.error(`[tmuxwright] ${name} failed:`, thrown);
    result = errorResult(error, args);
    outcome = "error";
    code = error.code;
  }
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  await engine.audit.record({
    tool: name,
    paneId: ctx.paneId ?? (typeof args.pane_id === "string" ? args.pane_id : null),
    args,
    outcome,
    error: code,
    durationMs: performance.now() - started,
    outputBytes: new TextEncoder().encode(text).length,
  });
  return result;
}

export function okResult(value: Record<string, unknown>): CallToolResult {
  let text = JSON.stringify(value);
  if (text.length > MAX_RESPONSE_CHARS) {
    text = JSON.stringify({
      error: "RESPONSE_TOO_LARGE",
      limit_chars: MAX_RESPONSE_CHARS,
      hint: "Ask for fewer lines.",
    });
    return { content: [{ type: "text", text }], isError: true };
  }
  return { content: [{ type: "text", text }], structuredContent: value };
}

/** The agent-facing error text: never echoes payload arguments (text, keys, command, input, env values). */
export function errorResult(error: ToolError, args: Record<string, unknown> = {}): CallToolResult {
  const text = scrubErrorText(`${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ""}`, args);
  return { content: [{ type: "text", text }], isError: true };
}

/** Shared argument schemas, declared once. */
export const paneIdArg = paneRef.describe('pane id "%N" or the pane\'s name');
