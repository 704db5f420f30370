import * as z from "zod";
import type { App } from "../../app.ts";
import { type McpServer, ProtocolErrorCode } from "../sdk.ts";
import type { CompletionKind } from "../completion.ts";
import { answering, ProtocolError } from "../protocol_errors.ts";
import type { PromptDefinition, ToolNames } from "./define.ts";
import { interruptGracefully, runAndWait } from "./commands.ts";
import { diagnoseFailingPane } from "./diagnose.ts";
import { buildDevWorkspace, debugWithPanes } from "./workspaces.ts";

export { ToolNames } from "./define.ts";

/** Every prompt the server can offer; each is listed only when the tools it names are exposed. */
export const PROMPTS: readonly PromptDefinition[] = [
  runAndWait,
  diagnoseFailingPane,
  buildDevWorkspace,
  interruptGracefully,
  debugWithPanes,
];

/**
 * What completes an argument of a prompt (live panes, sessions or windows); null when the
 * argument completes to nothing, undefined when there is no such prompt.
 */
export function promptArgumentKind(prompt: string, argument: string): CompletionKind | null | undefined {
  const found = PROMPTS.find((p) => p.name === prompt);
  return found ? found.args.find((a) => a.name === argument)?.complete ?? null : undefined;
}

/**
 * prompts/list and prompts/get for one connection. Messages name this connection's tools by
 * their real names (with the prefix), and a prompt whose tools the profile or tier hides is not
 * offered. Arguments are validated; a bad one is a JSON-RPC invalid-params error.
 */
export function registerPrompts(server: McpServer, app: App, tools: ToolNames): void {
  const offered = PROMPTS.filter((prompt) => prompt.available(tools));
  const listed = offered.map((prompt) => ({
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.args.map((a) => ({ name: a.name, description: a.description, required: a.required })),
  }));
  server.server.setRequestHandler("prompts/list", () => ({ prompts: listed }));
  server.server.setRequestHandler("prompts/get", (request) =>
    answering(async () => {
      const prompt = offered.find((p) => p.name === request.params.name);
      if (!prompt) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Prompt ${JSON.stringify(request.params.name)} not found: offered are ${
            offered.map((p) => p.name).join(", ")
          }`,
        );
      }
      const values = validate(prompt, request.params.arguments ?? {});
      const text = await prompt.render(values, { app, tools });
      return {
        description: prompt.description,
        messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
      };
    }, ProtocolErrorCode.InvalidParams));
}

function validate(prompt: PromptDefinition, given: Record<string, string>): Record<string, string | undefined> {
  const shape = Object.fromEntries(prompt.args.map((a) => [a.name, a.required ? a.schema : a.schema.optional()]));
  const unknown = Object.keys(given).filter((name) => !(name in shape));
  // An empty string from a form field means "not given".
  const values = Object.fromEntries(Object.entries(given).filter(([name, v]) => name in shape && v !== ""));
  const parsed = z.object(shape).safeParse(values);
  const problems = [
    ...unknown.map((name) => `${name}: not an argument of this prompt`),
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`)),
  ];
  if (problems.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid arguments for prompt ${prompt.name}: ${problems.join("; ")}`,
    );
  }
  return parsed.data as Record<string, string | undefined>;
}
