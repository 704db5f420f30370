import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { LineTest } from "./triggers.ts";
import { listSegments, readRange, renderPartialLine } from "../output/mod.ts";

/** How long a REPL turn waits for the prompt before it types anyway (a prompt the pattern does not see on screen). */
const READY_CAP_MS = 5_000;
const POLL_MS = 40;

/**
 * Waits until the REPL shows its prompt on the cursor's line, so input is typed into a REPL that
 * reads it. A REPL still starting (python a moment after create_pane) would otherwise get the
 * terminal's own echo of the input, then its prompt: the turn would end at once with no output,
 * or take the REPL's redrawn input line for output. Bounded by the turn's own timeout and a cap.
 */
export async function awaitReplPrompt(
  tmux: TmuxServer,
  pane: PaneInfo,
  prompt: LineTest,
  timeoutMs: number,
  signal?: AbortSignal,
  logPath?: string,
): Promise<void> {
  // A warm REPL's prompt is already its log's unfinished last line: no look at the pane (a round trip on a host).
  if (logPath !== undefined && await promptEndsLog(logPath, prompt)) return;
  const deadline = performance.now() + Math.min(READY_CAP_MS, timeoutMs / 2);
  for (;;) {
    const [[where], screen] = await tmux.batch([
      ["display-message", "-p", "-t", pane.paneId, "#{cursor_y} #{cursor_x}"],
      ["capture-pane", "-p", "-N", "-t", pane.paneId],
    ]);
    const [y, x] = (where ?? "").split(" ").map(Number);
    const line = (screen[y] ?? "").slice(0, x);
    if (prompt.test(line) || performance.now() >= deadline || signal?.aborted) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Whether the log's last, unfinished line (its newest 2 KiB) is a prompt. */
async function promptEndsLog(logPath: string, prompt: LineTest): Promise<boolean> {
  try {
    // The segments' layout, as a remote pane's log has no link to its newest segment.
    const segments = await listSegments(logPath);
    const last = segments.at(-1);
    if (!last) return false;
    const end = last.start + last.size;
    const { bytes } = await readRange(segments, end - 2048, end);
    const text = new TextDecoder().decode(bytes);
    const line = text.slice(text.lastIndexOf("\n") + 1);
    return line !== "" && prompt.test(renderPartialLine(line));
  } catch {
    return false; // no log to read: the pane is looked at
  }
}
