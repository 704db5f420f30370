import * as z from "zod";
import {
  type Budget,
  fitLines,
  MAX_OUTPUT_BYTES,
  type Omitted,
  outputBudget,
  utf8Length,
} from "../engine/output/mod.ts";

/** The one parameter that raises or lowers a call's output budget (engine/output/budget.ts). */
export const maxOutputArg = z.number().int().min(0).max(MAX_OUTPUT_BYTES).optional().describe(
  "bytes kept (head+tail), default 8192",
);

export function budgetFrom(maxOutput: number | undefined): Budget {
  return outputBudget(maxOutput);
}

/** What a budgeted result carries beside its text. */
export interface BudgetFacts {
  truncated: boolean;
  totalLines?: number;
  totalBytes?: number;
  omitted?: Omitted;
}

/** The structured fields of a budgeted output: `truncated`, and when it is, the totals and the omitted range. */
export function budgetFields(facts: BudgetFacts): Record<string, unknown> {
  if (!facts.truncated || facts.omitted === undefined) return { truncated: facts.truncated };
  const o = facts.omitted;
  return {
    truncated: true,
    total_lines: facts.totalLines,
    total_bytes: facts.totalBytes,
    omitted: {
      lines: o.lines,
      bytes: o.bytes,
      ...(o.fromByte === undefined ? {} : { from_byte: o.fromByte, to_byte: o.toByte }),
    },
  };
}

/** For the tool reference: the result fields budgetFields() adds. */
export const BUDGET_RESULT = {
  truncated: "the output was cut to the budget (max_output): head and tail kept, one marker line between",
  total_lines: "with truncated: lines of the whole output",
  total_bytes: "with truncated: bytes of the whole output",
  omitted: "with truncated: {lines, bytes, from_byte, to_byte} left out; read_logs returns that byte range",
};

/**
 * Lines fitted into the budget when their raw bytes are not at hand (a screen, a REPL turn, the
 * last lines of a process): the marker names `call`, a call that returns them all.
 */
export function fitShown(
  lines: readonly string[],
  budget: Budget,
  call: (omitted: Omitted, totalBytes: number) => string,
): { lines: string[]; facts: BudgetFacts } {
  const rows = lines.map((text) => ({ text }));
  let total = 0;
  const fitted = fitLines(rows, budget, (o) => {
    total = rows.reduce((n, r) => n + utf8Length(r.text) + 1, 0);
    return `[… ${o.lines} line${o.lines === 1 ? "" : "s"}, ${o.bytes} bytes omitted; ${call(o, total)} returns them …]`;
  });
  return {
    lines: fitted.truncated ? fitted.text.split("\n") : lines.slice(),
    facts: {
      truncated: fitted.truncated,
      totalLines: fitted.totalLines,
      totalBytes: fitted.totalBytes,
      ...(fitted.omitted ? { omitted: fitted.omitted } : {}),
    },
  };
}

/** A tool call written as an agent would send it: `name {json}`. */
export function callText(name: string, args: Record<string, unknown>): string {
  return `${name} ${JSON.stringify(args)}`;
}
