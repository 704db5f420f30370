/**
 * The three model APIs' answers as their clients parse them, for scripted stand-ins
 * (model_standin.ts): Anthropic Messages with SSE (Claude Code), OpenAI Responses with SSE (Codex
 * CLI), Gemini generateContent / streamGenerateContent (Gemini CLI). Only what the clients read.
 */

function sse(events: { event?: string; data: unknown }[]): Response {
  const body = events.map(({ event, data }) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  return new Response(body.join(""), { headers: { "content-type": "text/event-stream" } });
}

// --- Anthropic Messages (POST /v1/messages, stream: true) ---

/** One assistant message: a text block, or a tool_use block (stop_reason tool_use). */
export function anthropicMessage(reply: { text: string } | { tool: string; input: unknown; id?: string }): Response {
  const block = "text" in reply
    ? { start: { type: "text", text: "" }, delta: { type: "text_delta", text: reply.text } }
    : {
      start: {
        type: "tool_use",
        id: reply.id ?? `toolu_${crypto.randomUUID().slice(0, 8)}`,
        name: reply.tool,
        input: {},
      },
      delta: { type: "input_json_delta", partial_json: JSON.stringify(reply.input) },
    };
  const message = {
    id: `msg_${crypto.randomUUID().slice(0, 8)}`,
    type: "message",
    role: "assistant",
    model: "stand-in",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  };
  const events = [
    { type: "message_start", message },
    { type: "content_block_start", index: 0, content_block: block.start },
    { type: "content_block_delta", index: 0, delta: block.delta },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "text" in reply ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: "message_stop" },
  ];
  return sse(events.map((data) => ({ event: data.type, data })));
}

/** The tool_result blocks of the last user message of an Anthropic request. */
// deno-lint-ignore no-explicit-any
export function anthropicToolResults(body: any): { tool_use_id: string; content: unknown; is_error?: boolean }[] {
  const last = body?.messages?.at(-1);
  // deno-lint-ignore no-explicit-any
  return Array.isArray(last?.content) ? last.content.filter((block: any) => block.type === "tool_result") : [];
}

/** The tool_use blocks of the assistant message an Anthropic request's last user message answers. */
// deno-lint-ignore no-explicit-any
export function anthropicAnsweredCalls(body: any): { id: string; name: string; input: unknown }[] {
  const messages = body?.messages ?? [];
  const assistant = messages.at(-2);
  // deno-lint-ignore no-explicit-any
  return Array.isArray(assistant?.content) ? assistant.content.filter((block: any) => block.type === "tool_use") : [];
}

/** The text of a tool_result's content (a string, or text blocks). */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  // deno-lint-ignore no-explicit-any
  return Array.isArray(content) ? content.map((block: any) => block.text ?? "").join("") : "";
}

// --- OpenAI Responses (POST /v1/responses, stream: true) ---

/** One response: a message with text, or a function call (in a tool namespace, as Codex offers MCP tools). */
export function responsesReply(
  reply: { text: string } | { call: string; namespace?: string; arguments: unknown },
): Response {
  const id = `resp_${crypto.randomUUID().slice(0, 8)}`;
  const item = "text" in reply
    ? { type: "message", role: "assistant", id: `msg_${id}`, content: [{ type: "output_text", text: reply.text }] }
    : {
      type: "function_call",
      id: `fc_${id}`,
      call_id: `call_${id}`,
      name: reply.call,
      ...(reply.namespace ? { namespace: reply.namespace } : {}),
      arguments: JSON.stringify(reply.arguments),
    };
  const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
  return sse([
    { type: "response.created", response: { id } },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { id, usage } },
  ].map((data) => ({ event: data.type, data })));
}

/** The function_call_output items of a Responses request's input. */
// deno-lint-ignore no-explicit-any
export function responsesOutputs(body: any): { call_id: string; output: unknown }[] {
  // deno-lint-ignore no-explicit-any
  return (body?.input ?? []).filter((item: any) => item.type === "function_call_output");
}

// --- Gemini (POST /v1beta/models/MODEL:generateContent | :streamGenerateContent?alt=sse) ---

/**
 * One candidate: text, or a function call. A request that asks for JSON (`responseJsonSchema`,
 * as Gemini CLI's own routing and checks do) gets an object of that schema instead.
 */
export function geminiReply(
  path: string,
  // deno-lint-ignore no-explicit-any
  body: any,
  reply: { text: string } | { call: string; args: unknown },
): Response {
  const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
  const part = schema
    ? { text: JSON.stringify(fill(schema)) }
    : "text" in reply
    ? { text: reply.text }
    : { functionCall: { name: reply.call, args: reply.args } };
  const chunk = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "stand-in",
  };
  return path.includes(":streamGenerateContent") ? sse([{ data: chunk }]) : Response.json(chunk);
}

/** The functionResponse parts of a Gemini request's contents. */
// deno-lint-ignore no-explicit-any
export function geminiFunctionResponses(body: any): { name: string; response: unknown }[] {
  // deno-lint-ignore no-explicit-any
  return (body?.contents ?? []).flatMap((c: any) => c.parts ?? []).filter((p: any) => p.functionResponse)
    // deno-lint-ignore no-explicit-any
    .map((p: any) => p.functionResponse);
}

/** A value of a (Gemini-flavoured, upper-case types allowed) JSON Schema: the smallest that fits. */
// deno-lint-ignore no-explicit-any
function fill(schema: any): unknown {
  if (schema.enum) return schema.enum[0];
  switch (String(schema.type ?? "object").toLowerCase()) {
    case "string":
      return "stand-in";
    case "integer":
    case "number":
      return schema.minimum ?? 10;
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return Object.fromEntries(
        (schema.required ?? Object.keys(schema.properties ?? {})).map((key: string) => [
          key,
          fill(schema.properties?.[key] ?? {}),
        ]),
      );
  }
}
