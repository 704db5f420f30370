/** Logs: reading an owned pane's durable log (tail or byte ranges, also after it is gone) and searching panes. */
export { type ChunkResult, readChunk, readTail, type TailResult } from "./log_reader.ts";
export { type LogScope, type LogTarget, resolveLog } from "./log_target.ts";
export { type PaneMatches, searchPanes } from "./search.ts";
