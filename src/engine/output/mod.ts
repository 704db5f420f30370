/**
 * Output: every byte a pane writes. Owned panes write to durable, rotated log files (pipe-pane)
 * followed with filesystem events; other panes are tapped through control-mode `%output`.
 * `renderTerminalText` turns terminal bytes into the text a person would read; `fitLines` fits
 * output into a budget (head and tail, one marker); `OutputSpool` keeps budgeted output of
 * panes without a log.
 */
export { type OnBytes, type OutputPane, type OutputSubscription, PaneOutput, type SubscribeOptions } from "./source.ts";
export { logSize } from "./follower.ts";
export { ensureLogDir, logDir, logPathFor, pipeCommand } from "./log_files.ts";
export { logEntries, type LogEntry, pruneLogs, recordLog } from "./registry.ts";
export { concatBytes, listSegments, logStart, readLogRange, readRange, type Segment } from "./rotation.ts";
export { renderPartialLine, renderTerminalText } from "./render.ts";
export {
  type Budget,
  DEFAULT_OUTPUT_BYTES,
  fitLines,
  type Fitted,
  MAX_OUTPUT_BYTES,
  type Omitted,
  outputBudget,
  type OutputLine,
  rawLines,
  READ_LOGS_MAX_BYTES,
  readLogsMarker,
  utf8Length,
} from "./budget.ts";
export { OutputSpool } from "./spool.ts";
export { RemoteLogs } from "./remote_logs.ts";
export { type LogGap, readGaps } from "./gap_fill.ts";
