/**
 * Output: every byte a pane writes. Owned panes write to durable, rotated log files (pipe-pane)
 * followed with filesystem events; other panes are tapped through control-mode `%output`.
 * `renderTerminalText` turns terminal bytes into the text a person would read.
 */
export { type OutputPane, type OutputSubscription, PaneOutput } from "./source.ts";
export { logSize } from "./follower.ts";
export { ensureLogDir, logDir, logPathFor, pipeCommand } from "./log_files.ts";
export { logEntries, type LogEntry, pruneLogs, recordLog } from "./registry.ts";
export { concatBytes, listSegments, logStart, readLogRange, readRange, type Segment } from "./rotation.ts";
export { renderPartialLine, renderTerminalText } from "./render.ts";
