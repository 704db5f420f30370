/**
 * One scripted model for the three agent CLIs driven in panes (tests/agents_*_test.ts): it serves
 * the Anthropic Messages, OpenAI Responses and Gemini APIs (model_apis.ts) and answers a person's
 * turn by what the turn says:
 *
 * - `[slow]` in the prompt: the answer comes 5 s after the request;
 * - `[hold]`: the answer comes once the test calls `release()` (the agent works meanwhile);
 * - `[tool]`: the model first calls the CLI's shell tool to run `touch FILE` (FILE after `[tool]`),
 *   which the CLI asks its person about; once the tool's result is back it answers `ran: <prompt>`;
 * - anything else: `replyTo(prompt)`.
 *
 * Each answer's last byte is timed (`answeredAt`, performance.now() of this process), so a test can
 * tell how long after the model's last byte the turn came back.
 */
import { type ModelRequest, ModelStandIn } from "./model_standin.ts";
import {
  anthropicMessage,
  anthropicToolResults,
  geminiFunctionResponses,
  geminiReply,
  responsesReply,
} from "./model_apis.ts";

/** The model's reply to a plain prompt: two lines, so the frame around them shows. */
export function replyTo(prompt: string): string {
  return `You said: ${prompt}\nThat is all from the stand-in model.`;
}

export const SLOW_MS = 5_000;

export interface Answer {
  /** The person's prompt the answer belongs to. */
  prompt: string;
  text: string;
  /** When the answer's last byte was sent (performance.now()). */
  answeredAt: number;
}

export class AgentModel implements AsyncDisposable {
  /** The final answers of turns (text, not tool calls), in order. */
  readonly answers: Answer[] = [];
  readonly #held: (() => void)[] = [];

  private constructor(readonly standIn: ModelStandIn) {}

  static start(): AgentModel {
    const model: AgentModel = new AgentModel(ModelStandIn.start((request) => model.#answer(request)));
    return model;
  }

  get url(): string {
    return this.standIn.url;
  }

  /** Lets every `[hold]` turn's answer go. */
  release(): void {
    for (const go of this.#held.splice(0)) go();
  }

  /** The answer to the turn whose prompt contains `text`, once sent. */
  answerTo(text: string): Answer | undefined {
    return this.answers.findLast((a) => a.prompt.includes(text));
  }

  async #answer({ path, body }: ModelRequest): Promise<Response | null> {
    if (path.startsWith("/v1/messages")) {
      if (path.includes("count_tokens")) return Response.json({ input_tokens: 10 });
      const prompt = anthropicPrompt(body);
      const toolDone = anthropicToolResults(body).length > 0;
      if (prompt === null) return anthropicMessage({ text: "stand-in" });
      return await this.#turn(prompt, toolDone, (reply) =>
        "tool" in reply
          ? anthropicMessage({
            tool: "Bash",
            input: { command: `touch ${reply.tool}`, description: "Touch a file" },
          })
          : anthropicMessage(reply));
    }
    if (path.endsWith("/responses")) {
      // Codex's side requests (a title for the task) offer no tools.
      if (!Array.isArray(body?.tools) || body.tools.length === 0) return responsesReply({ text: "Stand-in task" });
      const prompt = responsesPrompt(body);
      if (prompt === null) return responsesReply({ text: "stand-in" });
      return await this.#turn(
        prompt,
        body.input?.at(-1)?.type === "function_call_output",
        (reply) =>
          "tool" in reply
            ? responsesReply({
              call: "exec_command",
              arguments: {
                cmd: `touch ${reply.tool}`,
                sandbox_permissions: "require_escalated",
                justification: "May I touch the file?",
              },
            })
            : responsesReply(reply),
      );
    }
    if (path.startsWith("/v1beta/models/")) {
      if (path.includes(":countTokens")) return Response.json({ totalTokens: 10 });
      const prompt = geminiPrompt(body);
      const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
      if (prompt === null || schema) return geminiReply(path, body, { text: "stand-in" });
      return await this.#turn(
        prompt,
        geminiFunctionResponses({ contents: body.contents?.slice(-1) }).length > 0,
        (reply) =>
          geminiReply(
            path,
            body,
            "tool" in reply ? { call: "run_shell_command", args: { command: `touch ${reply.tool}` } } : reply,
          ),
      );
    }
    return null;
  }

  async #turn(
    prompt: string,
    toolDone: boolean,
    render: (reply: { text: string } | { tool: string }) => Response,
  ): Promise<Response> {
    const tool = /\[tool\]\s*(\S+)/.exec(prompt)?.[1];
    if (tool !== undefined && !toolDone) return render({ tool });
    if (prompt.includes("[slow]")) await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    if (prompt.includes("[hold]")) await new Promise<void>((resolve) => this.#held.push(resolve));
    const text = tool !== undefined ? `ran: ${prompt}` : replyTo(prompt);
    return this.#timed(render({ text }), { prompt, text });
  }

  /** The response with its last byte timed. */
  #timed(response: Response, answer: { prompt: string; text: string }): Response {
    const timing = new TransformStream<Uint8Array, Uint8Array>({
      flush: () => void this.answers.push({ ...answer, answeredAt: performance.now() }),
    });
    return new Response(response.body!.pipeThrough(timing), { status: response.status, headers: response.headers });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.release();
    await this.standIn[Symbol.asyncDispose]();
  }
}

/** The text a person typed in the last user message (system reminders left out); null for tool results alone. */
// deno-lint-ignore no-explicit-any
function anthropicPrompt(body: any): string | null {
  // deno-lint-ignore no-explicit-any
  const users = (body?.messages ?? []).filter((m: any) => m.role === "user");
  for (const message of users.toReversed()) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const texts = (blocks ?? [])
      // deno-lint-ignore no-explicit-any
      .filter((b: any) => b.type === "text" && !tagged(String(b.text)))
      // deno-lint-ignore no-explicit-any
      .map((b: any) => String(b.text));
    if (texts.length > 0) return texts.join("\n");
  }
  return null;
}

// deno-lint-ignore no-explicit-any
function responsesPrompt(body: any): string | null {
  // deno-lint-ignore no-explicit-any
  const users = (body?.input ?? []).filter((item: any) => item.type === "message" && item.role === "user");
  for (const message of users.toReversed()) {
    // deno-lint-ignore no-explicit-any
    const text = (message.content ?? []).filter((c: any) => c.type === "input_text" && !tagged(c.text))
      // deno-lint-ignore no-explicit-any
      .map((c: any) => c.text).join("\n");
    if (text !== "") return text;
  }
  return null;
}

// deno-lint-ignore no-explicit-any
function geminiPrompt(body: any): string | null {
  // deno-lint-ignore no-explicit-any
  const users = (body?.contents ?? []).filter((c: any) => c.role === "user");
  for (const content of users.toReversed()) {
    // deno-lint-ignore no-explicit-any
    const text = (content.parts ?? []).filter((p: any) => typeof p.text === "string" && !tagged(p.text))
      // deno-lint-ignore no-explicit-any
      .map((p: any) => p.text).join("\n");
    if (text !== "") return text;
  }
  return null;
}

/** The CLIs' own context in a user message comes in tags (`<system-reminder>`, `<session_context>`). */
function tagged(text: string): boolean {
  return /^\s*<[a-z_-]+>/.test(text);
}
