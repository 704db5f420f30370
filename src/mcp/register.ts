import * as z from "zod";
import { PANE_VIEW_META, PANE_VIEW_TOOLS } from "./apps/pane_view.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type McpServer,
  type RequestHandlerExtra,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "./sdk.ts";
import type { ToolDefinition } from "./define.ts";
import type { App } from "../app.ts";
import { tierAllows, ToolContext } from "./context.ts";
import { ToolError, toToolError } from "../engine/errors.ts";
import { agentOf } from "../engine/panes/mod.ts";
import { type Config, type Profile, TIERS } from "../config.ts";
import { scrubErrorText } from "../safety/scrub.ts";
import { inputJsonSchema } from "./schema.ts";
import { ImageResult } from "./results.ts";
import { appOnHost, hostPaneId, routeHost, tagResult, whileLinked } from "./hosts.ts";
import { FAN_OUT } from "./fan_out.ts";
import { askThrough } from "./ask.ts";
import { type CallDeadline, callDeadline, startDeadline } from "./deadlines.ts";

const PROFILE_RANK: Record<Profile, number> = { core: 0, agent: 1, all: 2 };
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

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface CallContext {
  /** The connection the calls come from (tags the events a call causes). */
  origin?: string;
  onRefused?(tool: string, error: ToolError): void;
}

interface Entry {
  tool: ToolDefinition;
  schema: z.ZodObject;
  /** Listed and callable (false: above the safety tier, so hidden and answered with TIER_DENIED). */
  allowed: boolean;
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
  tools: readonly ToolDefinition[],
  context: CallContext = {},
): string[] {
  const { config } = app;
  const table = new Map<string, Entry>();
  for (const tool of tools) {
    if (!(TIERS as readonly unknown[]).includes(tool.tier)) {
      console.error(`[tmuxwright] tool ${tool.name} declares no valid safety tier; not exposed`);
      continue; // a tool without a tier is never exposed
    }
    if (!selected(tool, config)) continue;
    table.set(config.toolPrefix + tool.name, {
      tool,
      schema: z.object(tool.input),
      allowed: tierAllows(config.safety, tool.tier),
    });
  }
  // Built on the first tools/list, not before initialize: JSON Schemas of 58 tools take ~10 ms.
  let listed: Tool[] | null = null;
  const list = () =>
    listed ??= [...table].filter(([, entry]) => entry.allowed).map(([name, { tool, schema }]) => ({
      name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputJsonSchema(schema),
      annotations: tool.annotations, // the title is the tool's own `title`; repeating it here only costs context
      ...toolMeta(tool),
    }));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list() }));
  const allowed = new Set<string>(); // commands the person allowed for the rest of this MCP session
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const entry = table.get(name);
    if (!entry) return errorResult(new ToolError("INVALID_ARGUMENT", `Tool ${name} not found`), args);
    // The command policy asks the person behind this connection, for this call.
    const agent = agentOf(server.server.getClientVersion())?.name ?? null;
    const scope = { tool: entry.tool.name, ask: askThrough(server, extra), allowed, agent };
    return app.gate.within(scope, () => callTool(app, name, entry, args, extra, context));
  });
  return [...table].filter(([, entry]) => entry.allowed).map(([, { tool }]) => tool.name);
}

/**
 * A tool's `_meta`: MCP Apps hosts show the pane view next to the pane tools' results; Claude
 * Code's tool search reads the search hint. Other clients ignore `_meta`.
 */
function toolMeta(tool: ToolDefinition): { _meta?: Record<string, unknown> } {
  const meta = {
    ...(PANE_VIEW_TOOLS.has(tool.name) ? PANE_VIEW_META : {}),
    ...(tool.searchHint ? { [SEARCH_HINT]: tool.searchHint } : {}),
  };
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}

const SEARCH_HINT = "anthropic/searchHint";

/** A tool is served when the configured profile includes it or `--tools` names its group. */
export function selected(tool: ToolDefinition, config: Pick<Config, "tools" | "toolGroups">): boolean {
  if (config.toolGroups.includes(tool.group)) return true;
  return config.tools !== null && PROFILE_RANK[tool.profile] <= PROFILE_RANK[config.tools];
}

async function callTool(
  app: App,
  name: string,
  { tool, schema, allowed }: Entry,
  args: Record<string, unknown>,
  extra: Extra,
  context: CallContext,
): Promise<CallToolResult> {
  const started = performance.now();
  const token = extra._meta?.progressToken;
  const contextOn = (host: string, signal = extra.signal) =>
    new ToolContext(
      appOnHost(app, host),
      signal,
      async (progress, total, message) => {
        if (token === undefined) return;
        await extra.sendNotification({
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
    const timer = startDeadline(deadline, extra.signal);
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
    const error = toToolError(thrown);
    if (error.code === "INTERNAL") console.error(`[tmuxwright] ${name} failed:`, thrown);
    result = errorResult(error, args);
    if (outcome === "ok") outcome = "error";
    code = error.code;
    if (REFUSALS.has(error.code)) context.onRefused?.(name, error);
  }
  const sent = result.content.reduce(
    (n, block) =>
      n + (block.type === "text" ? new TextEncoder().encode(block.text).length : 0) +
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
