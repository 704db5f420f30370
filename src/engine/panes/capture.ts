import type { TmuxServer } from "../../tmux/server.ts";
import { formatTemplate, parseRows } from "../../tmux/formats.ts";
import { PANE_TEMPLATE, type PaneInfo, parsePanes } from "./panes.ts";
import { isPaneId, resolvePane } from "./targets.ts";

export interface CaptureOptions {
  /** Exactly this many lines, counted back from the last non-blank line of output. */
  lines?: number;
  /** Raw tmux line numbers (0 = first visible row, negative = history); overrides `lines`. */
  start?: number;
  end?: number;
  joinWrapped?: boolean;
  ansi?: boolean;
}

export interface Capture {
  text: string;
  lines: number;
  /** More lines existed before the first one returned. */
  truncated: boolean;
}

const DEAD_NOTICE = /^Pane is dead \(.*\)\s*$/;

/** What a capture needs to know of its pane. */
export type CapturedPane = Pick<PaneInfo, "paneId" | "dead" | "height" | "historySize" | "top">;

/**
 * Reads a pane's screen and history the way a person would read its output: trailing blank
 * rows dropped, wrapped lines joined, tmux's own "Pane is dead" notice removed.
 */
export async function capturePane(
  tmux: TmuxServer,
  pane: CapturedPane,
  options: CaptureOptions,
  first?: { rows: number; raw: string[] },
): Promise<Capture> {
  const flags = captureFlags(options);
  if (options.start !== undefined || options.end !== undefined) {
    const range = [
      ...(options.start !== undefined ? ["-S", String(options.start)] : []),
      ...(options.end !== undefined ? ["-E", String(options.end)] : []),
    ];
    const lines = clean(await tmux.run("capture-pane", "-t", pane.paneId, ...flags, ...range), pane, options);
    return { text: lines.join("\n"), lines: lines.length, truncated: false };
  }
  const want = options.lines ?? 100;
  // Joined lines can make fewer lines than rows, so widen the window until it holds enough.
  let rows = first?.rows ?? want + pane.height;
  for (let raw = first?.raw;; raw = undefined) {
    raw ??= await tmux.run("capture-pane", "-t", pane.paneId, ...flags, "-S", String(-rows), "-E", "-");
    const reachedStart = rows >= pane.historySize + pane.height;
    const lines = clean(raw, pane, options, reachedStart);
    if (lines.length >= want || reachedStart) {
      const slice = lines.slice(Math.max(0, lines.length - want));
      return { text: slice.join("\n"), lines: slice.length, truncated: lines.length > want || !reachedStart };
    }
    rows *= 2;
  }
}

function captureFlags(options: CaptureOptions): string[] {
  return ["-p", ...(options.joinWrapped === false ? [] : ["-J"]), ...(options.ansi ? ["-e"] : [])];
}

// Rows captured beyond `lines` on the first try, for the screen height not yet known.
const GUESS_ROWS = 200;

/**
 * Resolves `ref` (names within the workspace `instance`) and captures in one pipelined round trip when `ref` is a pane id (the common,
 * hot case); names and explicit ranges resolve first.
 */
export async function resolveAndCapture(
  tmux: TmuxServer,
  ref: string,
  instance: string,
  options: CaptureOptions,
): Promise<{ pane: PaneInfo; capture: Capture }> {
  if (!isPaneId(ref) || options.start !== undefined || options.end !== undefined) {
    const pane = await resolvePane(tmux, ref, instance);
    return { pane, capture: await capturePane(tmux, pane, options) };
  }
  const rows = (options.lines ?? 100) + GUESS_ROWS;
  const replies = await tmux.batch([
    ["display-message", "-p", "-t", ref, PANE_TEMPLATE],
    ["capture-pane", "-t", ref, ...captureFlags(options), "-S", String(-rows), "-E", "-"],
  ]).catch(() => null);
  const pane = replies ? parsePanes(replies[0])[0] : undefined;
  if (!replies || pane?.paneId !== ref || pane.closing) {
    const resolved = await resolvePane(tmux, ref, instance); // throws the agent-facing "not found" error
    return { pane: resolved, capture: await capturePane(tmux, resolved, options) };
  }
  return { pane, capture: await capturePane(tmux, pane, options, { rows, raw: replies[1] }) };
}

/**
 * Captures pane `paneId` with other commands pipelined before it in the same round trip (a caller
 * that must check something about the pane, such as which session it belongs to, pays nothing
 * extra). `capture` is null when the pane is gone; the other replies are returned in order.
 */
export async function captureAlongside(
  tmux: TmuxServer,
  paneId: string,
  options: CaptureOptions,
  alongside: readonly string[][],
): Promise<{ capture: Capture | null; replies: string[][] }> {
  const rows = (options.lines ?? 100) + GUESS_ROWS;
  const replies = await tmux.batch([
    ...alongside,
    ["display-message", "-p", "-t", paneId, CAPTURE_TEMPLATE],
    ["capture-pane", "-t", paneId, ...captureFlags(options), "-S", String(-rows), "-E", "-"],
  ]);
  const pane = capturedPane(replies[alongside.length]);
  if (pane?.paneId !== paneId || pane.closing) return { capture: null, replies: replies.slice(0, alongside.length) };
  const capture = await capturePane(tmux, pane, options, { rows, raw: replies[alongside.length + 1] });
  return { capture, replies: replies.slice(0, alongside.length) };
}

// Only what a capture needs: the full pane template asks tmux for the current command and path
// too, which it asks of the OS (a quarter of the bridge's tmux round trip).
const CAPTURE_FIELDS = {
  paneId: "pane_id",
  dead: "pane_dead",
  deadStatus: "pane_dead_status",
  deadSignal: "pane_dead_signal",
  height: "pane_height",
  historySize: "history_size",
  top: "@tmuxwright_top",
} as const;
const CAPTURE_TEMPLATE = formatTemplate(CAPTURE_FIELDS);

/** As parsePanes reads them: dead only once tmux knows how it ended, else still closing. */
function capturedPane(lines: string[]): (CapturedPane & { closing: boolean }) | undefined {
  const row = parseRows(CAPTURE_FIELDS, lines)[0];
  if (!row) return undefined;
  const ended = row.deadStatus !== "" || row.deadSignal !== "";
  return {
    paneId: row.paneId,
    dead: row.dead === "1" && ended,
    closing: row.dead === "1" && !ended,
    height: Number(row.height),
    historySize: Number(row.historySize),
    top: Number(row.top) || 0,
  };
}

function clean(raw: string[], pane: CapturedPane, options: CaptureOptions, fromStart = false): string[] {
  const lines = options.ansi ? raw.slice() : raw.map((line) => line.trimEnd());
  const isBlank = (line: string) => (options.ansi ? stripSgr(line) : line).trim() === "";
  // The blank row a command's gate stepped over (gate.ts) is not output.
  let skip = 0;
  while (fromStart && skip < pane.top && skip < lines.length && isBlank(lines[skip])) skip++;
  lines.splice(0, skip);
  while (lines.length > 0 && isBlank(lines[lines.length - 1])) lines.pop();
  if (
    pane.dead && lines.length > 0 &&
    DEAD_NOTICE.test(options.ansi ? stripSgr(lines[lines.length - 1]) : lines[lines.length - 1])
  ) {
    lines.pop();
    while (lines.length > 0 && isBlank(lines[lines.length - 1])) lines.pop();
  }
  return lines;
}

function stripSgr(line: string): string {
  // deno-lint-ignore no-control-regex
  return line.replace(/\x1b\[[0-9;:]*m/g, "");
}
