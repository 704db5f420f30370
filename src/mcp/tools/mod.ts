import type { ToolDefinition } from "../define.ts";
import { paneTools } from "./panes.ts";
import { inputTools } from "./input.ts";
import { screenTools } from "./screen.ts";
import { execTools } from "./exec.ts";
import { watchTools } from "./watch.ts";
import { logTools } from "./logs.ts";
import { sessionTools } from "./sessions.ts";
import { windowTools } from "./windows.ts";
import { paneLayoutTools } from "./pane_layout.ts";
import { paneControlTools } from "./pane_control.ts";
import { bufferTools } from "./buffers.ts";
import { channelTools } from "./channels.ts";
import { settingTools } from "./settings.ts";
import { serverTools } from "./server.ts";
import { displayTools } from "./display.ts";

/** The tool table: every tool the server can expose, grouped by capability, in the order `tools/list` shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...paneTools,
  ...inputTools,
  ...screenTools,
  ...execTools,
  ...watchTools,
  ...logTools,
  ...sessionTools,
  ...windowTools,
  ...paneLayoutTools,
  ...paneControlTools,
  ...bufferTools,
  ...channelTools,
  ...settingTools,
  ...serverTools,
  ...displayTools,
];
