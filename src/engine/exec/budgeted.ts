import { type Budget, type Omitted, type OutputSpool, readLogsMarker } from "../output/mod.ts";
import type { Typed } from "./typed.ts";

/** A command's output as a call returns it: within the budget, and where the rest is. */
export interface BudgetedOutput {
  output: string;
  truncated: boolean;
  /** With truncated: the whole output's lines and raw bytes, and what was left out. */
  totalLines?: number;
  totalBytes?: number;
  omitted?: Omitted;
}

/**
 * The output in [start, end) of a typed command, fitted into `budget`. The omitted middle stays
 * readable byte for byte with read_logs: a logged pane's offsets are its log's; for a pane
 * without a log the output goes to the spool first and the marker names spool offsets (output
 * over 8 MiB keeps only its two ends there: its middle was never kept).
 */
export function budgetedOutput(
  typed: Typed,
  start: number,
  end: number,
  budget: Budget,
  spool: OutputSpool,
): BudgetedOutput {
  let shift: number | null = typed.logged ? 0 : null;
  const fitted = typed.collector.fit(start, end, budget, (omitted) => {
    if (shift === null && !typed.collector.dropped(start, end)) {
      shift = spool.append(typed.paneId, typed.collector.slice(start, end)) - start;
    }
    if (shift === null) return readLogsMarker(typed.paneId, { ...omitted, fromByte: undefined, toByte: undefined });
    return readLogsMarker(typed.paneId, moved(omitted, shift));
  });
  if (!fitted.truncated || fitted.omitted === null) return { output: fitted.text, truncated: false };
  const omitted = shift === null
    ? { lines: fitted.omitted.lines, bytes: fitted.omitted.bytes, firstLine: fitted.omitted.firstLine }
    : moved(fitted.omitted, shift);
  return {
    output: fitted.text,
    truncated: true,
    totalLines: fitted.totalLines,
    totalBytes: fitted.totalBytes,
    omitted,
  };
}

function moved(omitted: Omitted, shift: number): Omitted {
  if (omitted.fromByte === undefined || omitted.toByte === undefined) return omitted;
  return { ...omitted, fromByte: omitted.fromByte + shift, toByte: omitted.toByte + shift };
}
