import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { ImageResult, paneIds, RESULT_PANE_IDS } from "../results.ts";
import { resolveAndCapture } from "../../engine/panes/mod.ts";
import { type PngScale, readScreen, snapshotFile, THEME_NAMES, writeSnapshotFile } from "../../engine/screen/mod.ts";
import { BUDGET_RESULT, budgetFields, budgetFrom, callText, fitShown, maxOutputArg } from "../budget.ts";

/** Reading what a pane shows: its output as text, and its screen as a person sees it. */
export const screenTools = [
  defineTool({
    name: "capture_pane",
    title: "Capture pane",
    description:
      "Read a pane's output: the last `lines` lines (default 100) of screen+history, wrapped lines joined. " +
      "Works on exited panes (crash output).",
    profile: "core",
    group: "screen",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      pane_id: paneIdArg,
      lines: z.number().int().min(1).max(10_000).optional(),
      start: z.number().int().min(-10_000_000).max(10_000).optional().describe("tmux -S line (negative = history)"),
      end: z.number().int().min(-10_000_000).max(10_000).optional().describe("tmux -E line"),
      join_wrapped: z.boolean().optional(),
      ansi: z.boolean().optional().describe("keep colour escapes"),
      max_output: maxOutputArg,
    },
    result: {
      ...RESULT_PANE_IDS,
      status: "running or exited",
      exit_code: "exited panes: the exit status (128+N for signal N)",
      lines: "number of lines captured (some may be in the omitted middle)",
      text: "the captured text, within the budget (head and tail kept)",
      ...BUDGET_RESULT,
      truncated: "older lines were left out, or the budget cut the middle (then total_lines, omitted)",
    },
    async handler(args, ctx) {
      const { pane, capture } = await resolveAndCapture(ctx.tmux, args.pane_id, ctx.workspace.instance, {
        lines: args.lines,
        start: args.start,
        end: args.end,
        joinWrapped: args.join_wrapped,
        ansi: args.ansi,
      });
      ctx.paneId = pane.paneId;
      await ctx.app.audit.capture(pane.paneId, capture.text);
      const asked = { pane_id: pane.paneId, lines: args.lines, start: args.start, end: args.end };
      const shown = fitShown(
        capture.text === "" ? [] : capture.text.split("\n"),
        budgetFrom(args.max_output),
        (_, total) => callText("capture_pane", { ...asked, max_output: total + 1024 }),
      );
      return {
        ...paneIds(pane),
        status: pane.dead ? "exited" : "running",
        ...(pane.dead ? { exit_code: pane.exitCode } : {}),
        lines: capture.lines,
        ...budgetFields(shown.facts),
        truncated: capture.truncated || shown.facts.truncated,
        text: shown.lines.join("\n"),
      };
    },
  }),
  defineTool({
    name: "snapshot_pane",
    title: "Snapshot pane",
    description: "The visible screen with cursor, mode, size, scroll position and history size; " +
      "`format` ansi keeps colours, html/svg/png (an image) render it as a person sees it; " +
      "`path` also saves it in the state directory.",
    profile: "agent",
    group: "screen",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {
      pane_id: paneIdArg,
      format: z.enum(["text", "ansi", "html", "svg", "png"]).optional(),
      theme: z.enum(THEME_NAMES).optional().describe("default dark"),
      scale: z.number().int().min(1).max(2).optional().describe("png: 2 doubles the pixels"),
      path: z.string().min(1).max(255).optional(),
    },
    result: {
      ...RESULT_PANE_IDS,
      format: "text, ansi, html, svg or png",
      content: "the screen in that format (not for png, which comes as MCP image content after this JSON)",
      path: "with `path`: the absolute path of the saved file, in the state directory's snapshots folder",
      cursor: "cursor position {x, y}",
      mode: "tmux pane mode (copy-mode …) or null",
      size: "{width, height}",
      scroll_position: "lines scrolled back in copy mode",
      history_size: "lines of scrollback",
      alternate_screen: "a full-screen program (vim, less) holds the screen",
      status: "running or exited",
    },
    errors: {
      INVALID_ARGUMENT: "`path` is not a file name for the snapshots folder, or a PNG would exceed 8000 pixels a side",
    },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      const format = args.format ?? "text";
      const { stateDir } = ctx.app.config;
      const file = args.path === undefined ? null : snapshotFile(stateDir, args.path, format);
      const screen = await readScreen(ctx.tmux, pane.paneId, format !== "text");
      const { state } = screen;
      const options = { theme: args.theme, scale: args.scale as PngScale | undefined }; // 1 or 2, checked above
      const content = await ctx.app.screens.render(screen, format, options);
      if (file) await writeSnapshotFile(stateDir, file, content, format);
      const fields = {
        ...paneIds(pane),
        format,
        ...(typeof content === "string" ? { content } : {}),
        ...(file ? { path: file } : {}),
        cursor: state.cursor,
        mode: state.mode,
        size: { width: state.width, height: state.height },
        scroll_position: state.scrollPosition,
        history_size: state.historySize,
        alternate_screen: state.alternateScreen,
        status: pane.dead ? "exited" : "running",
      };
      return typeof content === "string" ? fields : new ImageResult(fields, content, "image/png");
    },
  }),
];
