import type { ToolDefinition } from "../define.ts";
import { coreTools } from "./panes.ts";
import { logTools } from "./logs.ts";
import { processTools } from "./exec.ts";
import { screenTools } from "./screen.ts";
import { watchTools } from "./watch.ts";

/** The tool table: every tool the server can expose, in the order `tools/list` shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...coreTools,
  ...processTools,
  ...watchTools,
  ...logTools,
  ...screenTools,
];
