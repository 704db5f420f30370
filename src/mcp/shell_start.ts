import type { PaneInfo } from "../engine/panes/mod.ts";
import type { TmuxServer } from "../tmux/server.ts";

/** As long as exec gives a new pane's shell to draw its first prompt (PROMPT_GRACE_MS). */
const GRACE_MS = 10_000;

/**
 * A shell this server started a moment ago may not have drawn its first prompt yet; an integrated
 * shell marks that prompt, and a `shell` wait begun before it would take it for the end of the
 * input just sent (found by the randomized stress: `output: ""` at once). Such a wait starts once
 * the shell has drawn something (the cursor left the top-left corner), within the grace.
 */
export async function untilShellDrawn(tmux: TmuxServer, pane: PaneInfo, signal?: AbortSignal): Promise<void> {
  if (pane.shellSince === null) return;
  const deadline = pane.shellSince + GRACE_MS;
  while (Date.now() < deadline && !signal?.aborted) {
    const [line] = await tmux.run("display-message", "-p", "-t", pane.paneId, "#{cursor_x} #{cursor_y} #{pane_dead}");
    const [x, y, dead] = (line ?? "").split(" ");
    if (x !== "0" || y !== "0" || dead === "1") return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
