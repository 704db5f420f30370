import * as z from "zod";
import { hostArg } from "../hosts.ts";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { paneIds, RESULT_PANE_IDS } from "../results.ts";
import { ToolError } from "../../engine/errors.ts";
import { readChunk, readTail, resolveLog, searchPanes } from "../../engine/logs/mod.ts";
import { listPanes } from "../../engine/panes/mod.ts";
import type { ToolContext } from "../context.ts";
import type { LogTarget } from "../../engine/logs/mod.ts";
import { fitLines, type LogGap, readGaps, readLogsMarker } from "../../engine/output/mod.ts";
import { BUDGET_RESULT, budgetFields, budgetFrom, maxOutputArg } from "../budget.ts";

const MAX_CHUNK = 1024 * 1024;

/** Ids of the pane a log belongs to: from tmux when it is alive, from the registry when it is gone. */
function logIds(target: LogTarget): Record<string, unknown> {
  if (target.pane) return paneIds(target.pane);
  const entry = target.entry!;
  return { pane_id: entry.pane_id, window_id: null, session_id: null, name: entry.name, pane_gone: true };
}

/** Said whenever a read wanted bytes that rotation already deleted. */
function rotated(ctx: ToolContext, logStart: number): Record<string, unknown> {
  const { logMaxBytes, logKeep } = ctx.app.config;
  return {
    rotated: {
      first_byte: logStart,
      limit_bytes: logMaxBytes * (logKeep + 1),
      note: `output before byte ${logStart} was rotated away (log files of ${logMaxBytes} bytes, ${logKeep} kept)`,
    },
  };
}

/** Ranges of the bytes returned that were rebuilt or lost while a remote host was unreachable. */
async function gapsIn(logPath: string, from: number, to: number): Promise<Record<string, unknown>> {
  const gaps = await readGaps(logPath, from, to);
  return gaps.length === 0
    ? {}
    : { gaps: gaps.map((g: LogGap) => ({ from_byte: g.from, to_byte: g.to, kind: g.kind, down: g.down, up: g.up })) };
}

/** Byte mode on a pane without a log: the spool of its budgeted outputs, or null when it has none. */
async function spoolChunk(ctx: ToolContext, ref: string, from: number, max: number) {
  const pane = await ctx.pane(ref).catch(() => null);
  const chunk = pane === null ? null : ctx.app.spool.read(pane.paneId, from, max);
  if (pane === null || chunk === null) return null;
  ctx.paneId = pane.paneId;
  const next = chunk.from + chunk.bytes.length;
  return {
    ...paneIds(pane),
    content: new TextDecoder().decode(chunk.bytes),
    from_byte: chunk.from,
    next_byte: next,
    eof: next >= chunk.end,
    log_bytes: chunk.end,
    spool: true,
  };
}

export const logTools = [
  defineTool({
    name: "read_logs",
    title: "Read pane log",
    description: "Read an owned pane's durable output log (also after it was killed or the server restarted): " +
      "the last `lines` (default 500), or raw bytes from `from_byte` for streaming via next_byte " +
      "(also the output another call left out).",
    profile: "agent",
    group: "logs",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      pane_id: paneIdArg,
      lines: z.number().int().min(1).max(10_000).optional(),
      from_byte: z.number().int().min(-(2 ** 50)).max(2 ** 50).optional().describe("byte mode; negative = from end"),
      max_bytes: z.number().int().min(1).max(MAX_CHUNK).optional().describe("byte mode, default 65536"),
      strip_ansi: z.boolean().optional().describe("default true in line mode, false in byte mode"),
      max_output: maxOutputArg.describe("line mode: output bytes kept (head+tail), default 8192"),
    },
    result: {
      ...RESULT_PANE_IDS,
      pane_gone: "the pane no longer exists (ids from the log registry)",
      content: "the text (line mode) or the bytes as text (byte mode)",
      returned_lines: "line mode: lines read (some may be in the omitted middle)",
      ...BUDGET_RESULT,
      truncated: "line mode: older lines exist, or the budget cut the middle (then total_lines, omitted)",
      from_byte: "byte mode: where this chunk starts",
      next_byte: "where the next read starts (the log's end in line mode)",
      eof: "byte mode: the chunk reaches the end of the log",
      log_bytes: "byte mode: the log's size",
      log_path: "line mode: the log file",
      rotated: "output before first_byte was rotated away (limit_bytes kept)",
      gaps: "remote panes: byte ranges written after the host's link was down — kind history (rebuilt from the " +
        "host's scrollback, as rendered text) or lost (one marker line: the scrollback could not cover it)",
      spool: "byte mode on a pane without a log: the bytes come from the output budgeted calls left out (in memory)",
    },
    errors: {
      INVALID_ARGUMENT: "both lines and from_byte",
      PANE_NOT_FOUND: "no pane and no log of this server's state directory has that id or name",
    },
    async handler(args, ctx) {
      if (args.lines !== undefined && args.from_byte !== undefined) {
        throw new ToolError("INVALID_ARGUMENT", "Give lines or from_byte, not both");
      }
      const byteMode = args.from_byte !== undefined || args.max_bytes !== undefined;
      const scope = {
        stateDir: ctx.app.config.stateDir,
        socketPath: () => ctx.workspace.socketPath,
        instance: ctx.workspace.instance,
      };
      const target = await resolveLog(ctx.tmux, scope, args.pane_id).catch(async (error) => {
        // A pane without a log: what a budgeted result left out of its output is in the spool.
        const spooled = byteMode
          ? await spoolChunk(ctx, args.pane_id, args.from_byte ?? 0, args.max_bytes ?? 65536)
          : null;
        if (spooled === null) throw error;
        return spooled;
      });
      if ("content" in target) return target;
      ctx.paneId = target.pane?.paneId ?? target.entry?.pane_id ?? null;
      if (byteMode) {
        const chunk = await readChunk(
          target.logPath,
          args.from_byte ?? 0,
          args.max_bytes ?? 65536,
          args.strip_ansi ?? false,
        );
        const skipped = args.from_byte !== undefined && args.from_byte >= 0 && args.from_byte < chunk.logStart;
        return {
          ...logIds(target),
          content: chunk.content,
          from_byte: chunk.fromByte,
          next_byte: chunk.nextByte,
          eof: chunk.eof,
          log_bytes: chunk.logEnd,
          ...(skipped ? rotated(ctx, chunk.logStart) : {}),
          ...await gapsIn(target.logPath, chunk.fromByte, chunk.nextByte),
        };
      }
      const tail = await readTail(target.logPath, args.lines ?? 500, args.strip_ansi ?? true);
      const paneId = target.pane?.paneId ?? target.entry!.pane_id;
      const fitted = fitLines(tail.rows, budgetFrom(args.max_output), (o) => readLogsMarker(paneId, o));
      const budget = budgetFields({ ...fitted, omitted: fitted.omitted ?? undefined });
      return {
        ...logIds(target),
        content: fitted.text,
        returned_lines: tail.lines.length,
        ...budget,
        truncated: tail.truncated || fitted.truncated,
        next_byte: tail.logEnd,
        eof: true,
        log_path: target.logPath,
        ...await gapsIn(target.logPath, tail.rows[0]?.from ?? tail.logEnd, tail.logEnd),
        ...(tail.logStart > 0 && tail.lines.length < (args.lines ?? 500) ? rotated(ctx, tail.logStart) : {}),
      };
    },
  }),

  defineTool({
    name: "search_panes",
    title: "Search panes",
    description: "Find which panes show a string (or `regex`) on screen, plus `scrollback` lines above; " +
      "returns matched lines per pane with ids and names.",
    profile: "agent",
    group: "logs",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      pattern: z.string().min(1).max(512),
      regex: z.boolean().optional().describe("pattern is a regex (RE2 syntax)"),
      session: z.string().min(1).max(200).optional().describe("session name or $id"),
      scrollback: z.number().int().min(0).max(100_000).optional().describe("history lines, default 0"),
      limit: z.number().int().min(1).max(200).optional().describe("panes per page, default 20"),
      offset: z.number().int().min(0).max(100_000).optional(),
      host: hostArg.optional(),
    },
    result: {
      panes_searched: "panes looked at",
      panes_matched: "panes with at least one match",
      matches: "per pane (this page): its ids, lines [{line, text}] (1-based, up to 20), truncated",
      offset: "the page's first pane",
      next_offset: "the next page, when there is one",
      truncated: "more panes matched than this page holds, or the search was cut at 2 s",
      timed_out: "the search stopped after 2 s",
    },
    errors: { INVALID_ARGUMENT: "`pattern` is not a pattern the engine can compile" },
    async handler(args, ctx) {
      let panes = (await listPanes(ctx.tmux)).filter((p) => !ctx.workspace.isHub(p));
      if (args.session !== undefined) {
        panes = panes.filter((p) => p.sessionName === args.session || p.sessionId === args.session);
      }
      const pattern = await ctx.app.patterns.compile(args.pattern, { regex: args.regex ?? false });
      const { results, timedOut } = await searchPanes(ctx.tmux, panes, {
        pattern,
        scrollback: args.scrollback ?? 0,
        perPane: 20,
      });
      const offset = args.offset ?? 0;
      const limit = args.limit ?? 20;
      const page = results.slice(offset, offset + limit);
      const more = results.length > offset + limit;
      return {
        panes_searched: panes.length,
        panes_matched: results.length,
        matches: page.map((r) => ({ ...paneIds(r.pane), lines: r.matches, truncated: r.truncated })),
        offset,
        truncated: more || timedOut,
        ...(more ? { next_offset: offset + limit } : {}),
        ...(timedOut ? { timed_out: true } : {}),
      };
    },
  }),
];
