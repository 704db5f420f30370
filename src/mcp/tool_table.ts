import * as z from "zod";
import { PANE_VIEW_META, PANE_VIEW_TOOLS } from "./apps/pane_view.ts";
import type { Tool } from "./sdk.ts";
import type { ToolDefinition } from "./define.ts";
import { tierAllows } from "./context.ts";
import { type Config, type Profile, TIERS } from "../config.ts";
import { inputJsonSchema } from "./schema.ts";
import { INPUT_SCHEMAS } from "./tool_schemas.ts";
import { WORKSPACE_ARG, WORKSPACE_ARG_SCHEMA } from "./workspace_handles.ts";

const PROFILE_RANK: Record<Profile, number> = { core: 0, agent: 1, all: 2 };
const SEARCH_HINT = "anthropic/searchHint";

export interface Entry {
  tool: ToolDefinition;
  schema: z.ZodObject;
  /** Listed and callable (false: above the safety tier, so hidden and answered with TIER_DENIED). */
  allowed: boolean;
}

/**
 * The tools of the configured profile, built once per process and shared by every MCP server it
 * makes (a 2026-era HTTP request makes one): the zod schemas at once, the JSON Schemas of
 * `tools/list` on first use (58 tools take ~10 ms). `withWorkspace`: the listing of 2026-era HTTP,
 * where every tool also takes the caller's workspace handle.
 */
export class ToolTable {
  readonly entries = new Map<string, Entry>();
  readonly #listed = new Map<boolean, Tool[]>();

  constructor(
    config: Pick<Config, "tools" | "toolGroups" | "toolPrefix" | "safety">,
    tools: readonly ToolDefinition[],
  ) {
    for (const tool of tools) {
      if (!(TIERS as readonly unknown[]).includes(tool.tier)) {
        console.error(`[tmuxwright] tool ${tool.name} declares no valid safety tier; not exposed`);
        continue; // a tool without a tier is never exposed
      }
      if (!selected(tool, config)) continue;
      this.entries.set(config.toolPrefix + tool.name, {
        tool,
        schema: z.object(tool.input),
        allowed: tierAllows(config.safety, tool.tier),
      });
    }
  }

  /** The names (without prefix) of the tools listed. */
  get listedNames(): string[] {
    return [...this.entries.values()].filter((entry) => entry.allowed).map(({ tool }) => tool.name);
  }

  list(withWorkspace = false): Tool[] {
    let listed = this.#listed.get(withWorkspace);
    if (!listed) {
      listed = [...this.entries].filter(([, entry]) => entry.allowed).map(([name, { tool, schema }]) => {
        // Made at build time (scripts/gen_tool_schemas.ts); a tool defined since is converted here.
        const input = INPUT_SCHEMAS[tool.name] ?? inputJsonSchema(schema);
        return {
          name,
          title: tool.title,
          description: tool.description,
          inputSchema: withWorkspace ? withWorkspaceArg(input) : input,
          annotations: tool.annotations, // the title is the tool's own `title`; repeating it here only costs context
          ...toolMeta(tool),
        };
      });
      this.#listed.set(withWorkspace, listed);
    }
    return listed;
  }
}

function withWorkspaceArg(schema: Tool["inputSchema"]): Tool["inputSchema"] {
  return { ...schema, properties: { ...schema.properties, [WORKSPACE_ARG]: WORKSPACE_ARG_SCHEMA } };
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

/** A tool is served when the configured profile includes it or `--tools` names its group. */
export function selected(tool: ToolDefinition, config: Pick<Config, "tools" | "toolGroups">): boolean {
  if (config.toolGroups.includes(tool.group)) return true;
  return config.tools !== null && PROFILE_RANK[tool.profile] <= PROFILE_RANK[config.tools];
}
