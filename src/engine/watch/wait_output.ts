import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneOutput } from "../output/mod.ts";
import { logSize, readLogRange, renderTerminalText } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { atShellPrompt, paneProcess, type ProcState } from "./procstate.ts";
import type { ProcReader } from "./proc_reader.ts";
import { LineScanner } from "./line_scanner.ts";
import { runWait, type WaitEnd, type WaitOptions } from "./wait_loop.ts";

/**
 * The command a pane was last started for, as the part of the engine that types commands knows
 * it (the App wires exec's job table here; watch does not import exec).
 */
export interface PaneJob {
  /** It has begun running (not just typed). */
  readonly started: boolean;
  /** Its exit once known, with the status (null when the shell did not report one). */
  readonly exit: { code: number | null } | null;
  /** Resolves when its exit becomes known. */
  whenEnded(): Promise<void>;
}

export interface PaneJobs {
  current(paneId: string): PaneJob | null;
}

/** What the wait primitives need from the engine (the App satisfies it). */
export interface WaitDeps {
  tmux: TmuxServer;
  output: PaneOutput;
  proc: ProcReader;
  /** Commands typed into panes by execute_command / start_process, for watch_pane's `exit`. */
  jobs?: PaneJobs;
}

export type Since = "now" | "screen";

export interface ScanOptions {
  /** Skip the rest of a line already begun (the echo of a just-typed command); see scanPane. */
  echoGuard?: boolean;
  keepLines?: number;
  keepChars?: number;
  /** Start at this log offset (a cursor), not at the log's end. */
  fromOffset?: number;
  /** A pane without a log: start at this grid row (a cursor; `x` > 0: the row was begun). */
  fromRow?: { abs: number; x: number };
  /** The first lines are the echo of what the caller is about to type: skip this many. */
  skipLines?: number;
}

export interface PaneScan {
  scanner: LineScanner;
  close(): void;
}

/**
 * Starts turning a pane's new output into lines. With `echoGuard`, the rest of a line already
 * begun when the wait starts (or, at a shell prompt, the line about to be drawn) is skipped: after
 * `send_keys "cmd"`, the command line's echo can reach the log a few milliseconds after the wait
 * began, and it must not match.
 */
export async function scanPane(
  deps: WaitDeps,
  pane: PaneInfo,
  onLines: (lines: string[], scanner: LineScanner, bytes: Uint8Array) => void,
  options: ScanOptions = {},
): Promise<PaneScan> {
  let scanner = new LineScanner(options);
  const queue: Uint8Array[] = [];
  let ready = false;
  const feed = (bytes: Uint8Array) => onLines(scanner.push(bytes), scanner, bytes);
  let start: number | undefined;
  let midLine = false;
  const logged = deps.output.followsLog(pane);
  let startRow: { abs: number; x: number } | null = null;
  if (logged) {
    start = options.fromOffset ?? await logSize(pane.logPath!);
    midLine = options.echoGuard === true && start > 0 && await lineInProgress(pane.logPath!, start);
  } else {
    startRow = options.fromRow ?? await gridPosition(deps.tmux, pane.paneId);
    midLine = startRow.x > 0;
  }
  // Read after the start position: "at a prompt" then proves the typed line's echo comes after it.
  // (From a cursor, what the pane does now says nothing about the line at the cursor.)
  const fromCursor = options.fromOffset !== undefined || options.fromRow !== undefined;
  const proc = options.echoGuard && !fromCursor ? (await paneProcess(deps.proc, pane)).proc : null;
  const subscription = await deps.output.subscribe(pane, (bytes) => {
    if (ready) feed(bytes);
    else queue.push(bytes);
  }, start);
  let gap: string[] = [];
  try {
    // A line already begun is not new output (at a prompt: the prompt, then the typed command's echo).
    if (options.echoGuard && (midLine || (proc !== null && betweenCommands(proc, pane.pid)))) {
      scanner = new LineScanner({ ...options, skipFirstLine: true });
    }
    if (startRow) gap = await rowsSince(deps.tmux, pane.paneId, startRow.abs);
  } catch (error) {
    subscription.close();
    throw error;
  }
  // Rows completed while %output was being switched on (a control client attaches in a few ms).
  if (gap.length > 0) onLines(scanner.pushText(gap.map((l) => l + "\n").join("")), scanner, new Uint8Array(0));
  ready = true;
  for (const bytes of queue.splice(0)) feed(bytes);
  return { scanner, close: () => subscription.close() };
}

/**
 * The pane's own shell waits at its prompt: the next line is its prompt and the echo of a
 * command typed now. (A shell already running the typed line cannot be told apart, from /proc,
 * from one that has echoed it; see README.md "residual race" in this folder.)
 */
function betweenCommands(proc: ProcState, panePid: number | null): boolean {
  return atShellPrompt(proc) && proc.fgPid === panePid;
}

async function gridPosition(tmux: TmuxServer, paneId: string): Promise<{ abs: number; y: number; x: number }> {
  const [row] = await tmux.run("display-message", "-p", "-t", paneId, "#{history_size} #{cursor_y} #{cursor_x}");
  const [hs, y, x] = row.split(" ").map(Number);
  return { abs: hs + y, y, x };
}

/** Complete rows from absolute row `from` to the row above the cursor (wrapped rows joined). */
async function rowsSince(tmux: TmuxServer, paneId: string, from: number): Promise<string[]> {
  const now = await gridPosition(tmux, paneId);
  if (now.abs <= from) return [];
  const first = from - (now.abs - now.y); // relative to the top of the screen; negative = history
  return (await tmux.run("capture-pane", "-p", "-J", "-t", paneId, "-S", String(first), "-E", String(now.y - 1)))
    .map((l) => l.trimEnd());
}

/** Whether the log ends inside a line with visible text (not just escape sequences or a \r). */
async function lineInProgress(path: string, size: number): Promise<boolean> {
  try {
    const tail = new TextDecoder().decode(await readLogRange(path, Math.max(0, size - 4096), size));
    return renderTerminalText(tail.slice(tail.lastIndexOf("\n") + 1)).trim() !== "";
  } catch {
    return false;
  }
}

/**
 * The visible screen as lines to match (wrapped lines joined). The last line with text keeps the
 * blanks the program wrote after it (`-N`): that is the line being written, a prompt like `name? `.
 */
async function screenForMatch(tmux: TmuxServer, paneId: string): Promise<string[]> {
  const lines = await tmux.run("capture-pane", "-p", "-J", "-N", "-t", paneId);
  const last = lines.findLastIndex((l) => l.trim() !== "");
  return lines.map((l, i) => i === last ? l : l.trimEnd());
}

/** The visible screen as lines (wrapped lines joined). */
export async function visibleLines(tmux: TmuxServer, paneId: string): Promise<string[]> {
  return (await tmux.run("capture-pane", "-p", "-J", "-t", paneId)).map((l) => l.trimEnd());
}

export interface OutputMatch {
  line: string;
  match: string;
  /** Where it matched: already visible when the wait began, or new output. */
  from: "screen" | "output";
}

export interface OutputWaitResult {
  end: WaitEnd<OutputMatch>;
  /** The last lines observed (for a timeout report). */
  lastLines: string[];
}

/**
 * Waits until a line of the pane's output satisfies `matcher` (which returns the matched text
 * or null). By default only output written after the call began can match; `since: "screen"`
 * also tests what is visible now; `from` (a cursor) starts at an earlier position, so a reply
 * that came before the wait began matches too. Event driven: log follower or `%output`, never a poll.
 * Reusable by any tool that waits for a readiness line.
 */
export async function waitForOutput(
  deps: WaitDeps,
  pane: PaneInfo,
  matcher: (line: string) => string | null,
  options: WaitOptions & { since?: Since; from?: Pick<ScanOptions, "fromOffset" | "fromRow"> },
): Promise<OutputWaitResult> {
  let scan: PaneScan | null = null;
  let screen: string[] = [];
  const end = await runWait<OutputMatch>(options, async (finish) => {
    const test = (line: string | null, from: OutputMatch["from"]) => {
      if (line === null) return;
      const match = matcher(line);
      if (match !== null) finish({ line, match, from });
    };
    scan = await scanPane(deps, pane, (lines, scanner) => {
      for (const line of lines) test(line, "output");
      test(scanner.partialForMatch, "output");
    }, { echoGuard: options.since !== "screen", ...options.from });
    if (options.since === "screen") {
      screen = await screenForMatch(deps.tmux, pane.paneId);
      for (const line of screen.toReversed()) test(line, "screen");
    }
    const current = scan;
    return () => current.close();
  });
  const seen: string[] = (scan as PaneScan | null)?.scanner.lastLines(20) ?? [];
  if (end.kind !== "done") {
    // What the pane shows now is the best report of a wait that did not match.
    screen = await visibleLines(deps.tmux, pane.paneId).catch(() => []);
  }
  const shown = lastNonBlank(screen, 20);
  return { end, lastLines: shown.length > 0 ? shown : seen };
}

function lastNonBlank(lines: string[], n: number): string[] {
  const copy = lines.slice();
  while (copy.length > 0 && copy[copy.length - 1] === "") copy.pop();
  return copy.slice(-n);
}
