import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneOutput } from "../output/mod.ts";
import { logSize, readLogRange, renderTerminalText } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { atShellPrompt, paneProcess, type ProcessFacts, type ProcState } from "../facts/mod.ts";
import type { PaneEnds } from "./pane_ends.ts";
import { type ChunkLines, LineScanner, NO_LINES } from "./line_scanner.ts";

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
  proc: ProcessFacts;
  /** Commands typed into panes by execute_command / start_process, for watch_pane's `exit`. */
  jobs?: PaneJobs;
  /** When a pane can no longer answer: every wait ends then (absent: waits run to their deadline). */
  paneEnds?: PaneEnds;
}

export interface PaneScan {
  scanner: LineScanner;
  /** Resolves once the output written so far has been scanned (bounded: the pane has ended). */
  drain(): Promise<void>;
  close(): void;
}

/** How long the output a pane wrote before it ended may take to reach its wait. */
const DRAIN_MS = 300;

/**
 * Called per chunk of output: `lines` holds the complete lines it finished, rendered (none with
 * `decode: false`), `bytes` the chunk's raw bytes, valid only until the callback
 * returns or first awaits. A returned promise holds the next chunk until it settles.
 */
export type OnChunk = (lines: ChunkLines, bytes: Uint8Array, scanner: LineScanner) => void | Promise<void>;

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
  /** Decode and render lines (default); false keeps only the raw tail for the final report. */
  decode?: boolean;
}

/**
 * Starts turning a pane's new output into lines. With `echoGuard`, the rest of a line already
 * begun when the wait starts (or, at a shell prompt, the line about to be drawn) is skipped: after
 * `send_keys "cmd"`, the command line's echo can reach the log a few milliseconds after the wait
 * began, and it must not match. Chunks reach `onChunk` one at a time, in order: while it works on
 * one (a costly pattern yields to the event loop), a logged pane's reads wait and `%output` queues.
 */
export async function scanPane(
  deps: WaitDeps,
  pane: PaneInfo,
  onChunk: OnChunk,
  options: ScanOptions = {},
): Promise<PaneScan> {
  let scanner = new LineScanner(options);
  const decode = options.decode ?? true;
  const queue: Uint8Array[] = [];
  let ready = false;
  let closed = false;
  let busy: Promise<void> | null = null; // the chunk being worked on, when its callback awaits
  const run = (bytes: Uint8Array): void | Promise<void> => {
    if (closed) return;
    const lines = decode ? scanner.push(bytes) : (scanner.keep(bytes), NO_LINES);
    return onChunk(lines, bytes, scanner);
  };
  // A chunk that failed must not stop the chunks after it (nor reject where nobody listens).
  const failed = (error: unknown) =>
    console.error(`[tmuxwright] output of ${pane.paneId} not scanned: ${(error as Error)?.message ?? error}`);
  const feed = (bytes: Uint8Array): void | Promise<void> => {
    if (busy) {
      const copy = bytes.slice(); // %output arrives while a chunk is still worked on: keep it in order
      const next: Promise<void> = busy.then(() => run(copy)).catch(failed).finally(() => {
        if (busy === next) busy = null;
      });
      return busy = next;
    }
    const pending = run(bytes);
    if (!pending) return;
    const next: Promise<void> = pending.catch(failed).finally(() => {
      if (busy === next) busy = null;
    });
    return busy = next;
  };
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
  let received = 0;
  const subscription = await deps.output.subscribe(pane, (bytes) => {
    received += bytes.length;
    if (ready) return feed(bytes);
    queue.push(bytes.slice());
  }, { fromOffset: start, borrow: true });
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
  ready = true;
  // Rows completed while %output was being switched on (a control client attaches in a few ms).
  if (gap.length > 0) feed(new TextEncoder().encode(gap.map((l) => l + "\n").join("")));
  for (const bytes of queue.splice(0)) feed(bytes);
  // The log has every byte the pane wrote: read up to its end. A tap's %output comes before tmux
  // has even marked the pane dead, so a moment is enough there.
  const drain = async () => {
    const until = performance.now() + DRAIN_MS;
    while (logged && start! + received < await logSize(pane.logPath!) && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!logged) await new Promise((resolve) => setTimeout(resolve, 20));
    await busy;
  };
  return {
    scanner,
    drain,
    close: () => {
      closed = true;
      subscription.close();
    },
  };
}

/**
 * The pane's own shell waits at its prompt: the next line is its prompt and the echo of a
 * command typed now. (A shell already running the typed line cannot be told apart, from the OS,
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
export async function screenForMatch(tmux: TmuxServer, paneId: string): Promise<string[]> {
  const lines = await tmux.run("capture-pane", "-p", "-J", "-N", "-t", paneId);
  const last = lines.findLastIndex((l) => l.trim() !== "");
  return lines.map((l, i) => i === last ? l : l.trimEnd());
}

/** The visible screen as lines (wrapped lines joined). */
export async function visibleLines(tmux: TmuxServer, paneId: string): Promise<string[]> {
  return (await tmux.run("capture-pane", "-p", "-J", "-t", paneId)).map((l) => l.trimEnd());
}
