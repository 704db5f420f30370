/**
 * Generates docs/TOOLS.md, the tool reference, from the tool table: every tool's description,
 * profile, tier, annotations, parameters (from its zod schema), result fields and errors (from
 * `result` / `errors` in its definition, plus the errors every tool of its kind shares).
 * Nothing per tool is written here: a new defineTool() entry appears with the next run.
 *
 *   deno task docs            rewrite docs/TOOLS.md
 *   deno task docs --check    exit 1 when docs/TOOLS.md is stale (tests/tools_doc_test.ts does the same)
 */
import * as z from "zod";
import { ALL_TOOLS } from "../src/mcp/tools/mod.ts";
import type { ToolDefinition } from "../src/mcp/define.ts";
import { ERROR_CODES, type ErrorCode } from "../src/engine/errors.ts";
import { PATTERN_SYNTAX_HELP } from "../src/patterns/mod.ts";

export const TOOLS_DOC = new URL("../docs/TOOLS.md", import.meta.url);

interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** The whole reference, as markdown. */
export function renderToolsDoc(tools: readonly ToolDefinition[] = ALL_TOOLS): string {
  const out: string[] = [
    "# Tool reference",
    "",
    "Generated from the tool definitions by `deno task docs`; do not edit by hand (`tests/tools_doc_test.ts` fails when",
    "this file is stale). Every result is one JSON object, in `structuredContent` and as the text of the first content",
    "block. An error is a result with `isError: true` whose text starts with its code:",
    "`CODE: what failed, the state, and the tool to call next`.",
    "",
    "**Profiles** (`--tools`): `core` lists the five pane tools, `agent` (the default) adds the run, wait and read tools,",
    "`all` lists every tool. **Tiers** (`--safety`): `readonly` < `mutating` (default) < `destructive`; a tool above the",
    "server's tier is not listed and answers `TIER_DENIED`. `pane_id` takes `%N` or the name given at creation.",
    "",
    `**Patterns** (\`regex\`, \`ready\`, \`pattern:\`, \`prompt\`): ${PATTERN_SYNTAX_HELP}.`,
    "",
    "| tool | profile | tier | summary |",
    "| --- | --- | --- | --- |",
    ...tools.map((t) => `| [\`${t.name}\`](#${t.name}) | ${t.profile} | ${t.tier} | ${cell(t.title)} |`),
    "",
  ];
  for (const tool of tools) out.push(...renderTool(tool));
  out.push("## Error codes", "", "| code | meaning |", "| --- | --- |");
  for (const [code, meaning] of Object.entries(ERROR_CODES)) out.push(`| \`${code}\` | ${cell(meaning)} |`);
  return out.join("\n") + "\n";
}

function renderTool(tool: ToolDefinition): string[] {
  const schema = z.toJSONSchema(z.object(tool.input), { target: "draft-7", io: "input" }) as JsonSchema;
  const hints = Object.entries(tool.annotations).filter(([, on]) => on).map(([hint]) => hint.replace(/Hint$/, ""));
  const out = [
    `## ${tool.name}`,
    "",
    `**${tool.title}.** ${tool.description}`,
    "",
    `Profile \`${tool.profile}\` · tier \`${tool.tier}\`${hints.length > 0 ? ` · ${hints.join(", ")}` : ""}`,
    "",
  ];
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) out.push("No parameters.", "");
  else {
    out.push("| parameter | type | required | default | description |", "| --- | --- | --- | --- | --- |");
    for (const [name, property] of properties) {
      const required = schema.required?.includes(name) ? "yes" : "";
      const fallback = property.default !== undefined
        ? JSON.stringify(property.default)
        : /\bdefault:? ([^;,)]+)/i.exec(property.description ?? "")?.[1] ?? "";
      out.push(
        `| \`${name}\` | ${cell(typeOf(property))} | ${required} | ${cell(fallback)} | ${
          cell(property.description ?? "")
        } |`,
      );
    }
    out.push("");
  }
  out.push("**Result**", "");
  const result = Object.entries(tool.result ?? {});
  if (result.length === 0) out.push("Not declared in the tool's definition (`result`).");
  else out.push(...result.map(([field, meaning]) => `- \`${field}\`: ${meaning}`));
  out.push("", "**Errors**", "");
  for (const [code, when] of Object.entries(errorsOf(tool, properties.map(([name]) => name)))) {
    out.push(`- \`${code}\`: ${when}`);
  }
  out.push("");
  return out;
}

/** The tool's own errors, then the ones every tool of its kind shares. */
function errorsOf(tool: ToolDefinition, parameters: string[]): Partial<Record<ErrorCode, string>> {
  const errors: Partial<Record<ErrorCode, string>> = { ...tool.errors };
  const add = (code: ErrorCode, when: string) => {
    errors[code] = errors[code] ? `${errors[code]}; ${when}` : when;
  };
  add("INVALID_ARGUMENT", "an argument does not fit the schema above");
  if (tool.tier !== "readonly") add("TIER_DENIED", `the server runs below tier ${tool.tier}`);
  if (parameters.includes("pane_id")) {
    errors.PANE_NOT_FOUND ??= "no pane has that id or name";
    errors.AMBIGUOUS_TARGET ??= "several panes have that name";
  }
  if (parameters.includes("timeout_ms")) errors.CANCELLED ??= "the client cancelled the request";
  errors.TMUX_UNAVAILABLE ??= "tmux is missing or its server cannot be reached";
  return errors;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type ?? "any";
  const bounds: string[] = [];
  if (schema.minLength === 1) bounds.push("non-empty");
  else if (schema.minLength !== undefined && schema.minLength > 1) bounds.push(`≥ ${schema.minLength} chars`);
  if (schema.maxLength !== undefined) bounds.push(`≤ ${schema.maxLength.toLocaleString("en")} chars`);
  if (schema.minimum !== undefined && Math.abs(schema.minimum) !== SAFE_INTEGER) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum !== SAFE_INTEGER) {
    bounds.push(`≤ ${schema.maximum.toLocaleString("en")}`);
  }
  if (schema.minItems !== undefined && schema.minItems > 0) bounds.push(`≥ ${schema.minItems} items`);
  if (schema.maxItems !== undefined) bounds.push(`≤ ${schema.maxItems} items`);
  let base = type;
  if (type === "array" && schema.items) base = `array of ${typeOf(schema.items)}`;
  if (type === "object" && typeof schema.additionalProperties === "object") {
    base = `object of ${typeOf(schema.additionalProperties)}`;
  }
  return bounds.length > 0 ? `${base} (${bounds.join(", ")})` : base;
}

/** Text safe inside a markdown table cell. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The reference as `deno fmt` writes it (the repository's format check covers docs/TOOLS.md too). */
export async function formattedToolsDoc(): Promise<string> {
  const fmt = new Deno.Command("deno", {
    args: ["fmt", "--ext", "md", "-"],
    cwd: new URL("..", import.meta.url).pathname,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = fmt.stdin.getWriter();
  await writer.write(new TextEncoder().encode(renderToolsDoc()));
  await writer.close();
  const out = await fmt.output();
  if (!out.success) throw new Error(`deno fmt failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

if (import.meta.main) {
  const fresh = await formattedToolsDoc();
  if (Deno.args.includes("--check")) {
    const current = await Deno.readTextFile(TOOLS_DOC).catch(() => "");
    if (current !== fresh) {
      console.error("docs/TOOLS.md is stale: run deno task docs");
      Deno.exit(1);
    }
  } else {
    await Deno.writeTextFile(TOOLS_DOC, fresh);
    console.log(`wrote docs/TOOLS.md (${ALL_TOOLS.length} tools)`);
  }
}
