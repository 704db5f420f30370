import type { PaneInfo } from "../panes/mod.ts";
import { ChunkLines } from "./line_scanner.ts";
import { type ChunkTest, firstMatch, type FoundLine } from "./chunk_match.ts";
import { type PaneScan, type ScanOptions, scanPane, screenForMatch, visibleLines, type WaitDeps } from "./scan_pane.ts";
import { runWait, type WaitEnd, type WaitOn, type WaitOptions } from "./wait_loop.ts";

export {
  type PaneJob,
  type PaneJobs,
  type PaneScan,
  type ScanOptions,
  scanPane,
  visibleLines,
  type WaitDeps,
} from "./scan_pane.ts";

export type Since = "now" | "screen";

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
 * Waits until a line of the pane's output matches `pattern`. By default only output written
 * after the call began can match; `since: "screen"` also tests what is visible now; `from` (a
 * cursor) starts at an earlier position, so a reply that came before the wait began matches too.
 * Event driven: log follower or `%output`, never a poll. Each chunk's lines are matched in one call
 * (see chunk_match.ts). Reusable by any tool that waits for a readiness line.
 */
export async function waitForOutput(
  deps: WaitDeps,
  pane: PaneInfo,
  pattern: ChunkTest,
  options: WaitOptions & { since?: Since; from?: Pick<ScanOptions, "fromOffset" | "fromRow"> },
): Promise<OutputWaitResult> {
  let scan: PaneScan | null = null;
  let screen: string[] = [];
  const end = await runWait<OutputMatch>(options, async (finish) => {
    let done = false;
    const decide = (found: FoundLine | null, from: OutputMatch["from"]) => {
      if (!found || done) return;
      done = true;
      finish({ line: found.line, match: found.match, from });
    };
    // Most chunks are ruled out at once, with no promise; one that may match is matched in slices.
    const test = (lines: ChunkLines, from: OutputMatch["from"]): void | Promise<void> => {
      if (done) return;
      const found = firstMatch([pattern], lines);
      return found instanceof Promise ? found.then((hit) => decide(hit, from)) : decide(found, from);
    };
    scan = await scanPane(deps, pane, (lines, _bytes, scanner) => {
      return test(lines.withPartial(scanner.partialForMatch), "output");
    }, { echoGuard: options.since !== "screen", keepLines: 20, keepChars: 4_000, ...options.from });
    if (options.since === "screen") {
      screen = await screenForMatch(deps.tmux, pane.paneId);
      await test(new ChunkLines(screen.toReversed().join("\n")), "screen");
    }
    const current = scan;
    return () => {
      done = true;
      current.close();
    };
  }, endsOf(deps, pane, () => scan));
  const seen: string[] = (scan as PaneScan | null)?.scanner.lastLines(20) ?? [];
  if (end.kind !== "done") {
    // What the pane shows now is the best report of a wait that did not match.
    screen = withoutDeadLine(await visibleLines(deps.tmux, pane.paneId).catch(() => []));
  }
  const shown = lastNonBlank(screen, 20);
  return { end, lastLines: shown.length > 0 ? shown : seen };
}

/** The pane's end ends the wait, once the output written before it has been scanned. */
export function endsOf(deps: WaitDeps, pane: PaneInfo, scan: () => PaneScan | null): WaitOn | undefined {
  return deps.paneEnds && { ends: deps.paneEnds, pane, drain: () => scan()?.drain() ?? Promise.resolve() };
}

/** tmux draws "Pane is dead (status 3, …)" under a dead pane's output: not the program's output. */
export function withoutDeadLine(lines: string[]): string[] {
  const copy = lastNonBlank(lines, lines.length);
  if (copy.length > 0 && copy[copy.length - 1].startsWith("Pane is dead")) copy.pop();
  return lastNonBlank(copy, copy.length);
}

function lastNonBlank(lines: string[], n: number): string[] {
  const copy = lines.slice();
  while (copy.length > 0 && copy[copy.length - 1] === "") copy.pop();
  return copy.slice(-n);
}
