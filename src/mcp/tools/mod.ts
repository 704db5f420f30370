import type { ToolDefinition } from "../define.ts";
import { coreTools } from "./core.ts";
import { processTools } from "./process.ts";

/** The tool table: every tool the server can expose, in the order `tools/list` shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [...coreTools, ...processTools];
