import type * as z from "zod";
import type { Profile, Tier, ToolGroup } from "../config.ts";
import type { ToolContext } from "./context.ts";
import type { ImageResult } from "./results.ts";
import type { ErrorCode } from "../engine/errors.ts";

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool: schema, metadata, tier and a short handler. The tool table is a list of these. */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** The smallest profile that lists the tool. */
  profile: Profile;
  /** The capability group a `--tools` comma list can name. */
  group: ToolGroup;
  /** The least safety tier that may call the tool; a tool without one is never exposed. */
  tier: Tier;
  annotations: Annotations;
  /**
   * Words a client's tool search matches besides the name and description, sent as
   * `_meta["anthropic/searchHint"]` (Claude Code defers MCP tools behind its ToolSearch and
   * ranks a hint's words above the description's: docs/install.md).
   */
  searchHint?: string;
  input: Shape;
  /**
   * For the tool reference (docs/TOOLS.md, `deno task docs`), never sent to clients: each field of
   * the result and what it means. Spread RESULT_PANE_IDS for the ids every pane result carries.
   */
  result?: Record<string, string>;
  /**
   * For the tool reference: errors particular to this tool, code → when. The generator adds the
   * ones every tool shares (bad arguments, tier, pane_id not found, cancelled waits, tmux).
   */
  errors?: Partial<Record<ErrorCode, string>>;
  /** Structured fields (sent as structured content and as JSON text), or those fields with an image. */
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<Record<string, unknown> | ImageResult>;
}

/** Keeps each definition's handler typed by its own schema. */
export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

export const READ_ONLY: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
