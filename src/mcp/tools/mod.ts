import type { ToolDefinition } from "../define.ts";
import { paneTools } from "./panes.ts";
import { inputTools } from "./input.ts";
import { screenTools } from "./screen.ts";
import { execTools } from "./exec.ts";
import { watchTools } from "./watch.ts";
import { logTools } from "./logs.ts";

/** The tool table: every tool the server can expose, grouped by capability, in the order `tools/list` shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...paneTools,
  ...inputTools,
  ...screenTools,
  ...execTools,
  ...watchTools,
  ...logTools,
];
