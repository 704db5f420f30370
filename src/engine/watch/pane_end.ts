import type { PaneInfo } from "../panes/mod.ts";
import { type PaneProcess, paneProcess } from "../facts/mod.ts";
import type { WaitDeps } from "./wait_output.ts";

/** tmux's answer on whether a pane is dead, with its exit status once tmux has reaped it. */
export type DeadStatus = { kind: "alive" | "dead" | "dead-unreaped" | "gone"; code: number | null };

// tmux 3.3a answers `display-message -t %N` for a pane that no longer exists with empty fields and
// exit 0, not an error: the pane's own id in the answer tells the two apart.
export async function deadStatus(deps: WaitDeps, paneId: string): Promise<DeadStatus> {
  try {
    const [row] = await deps.tmux.run(
      "display-message",
      "-p",
      "-t",
      paneId,
      "#{pane_id} #{pane_dead} #{pane_dead_status}",
    );
    const [id, dead, status] = (row ?? "").split(" ");
    if (id !== paneId) return { kind: "gone", code: null };
    if (dead !== "1") return { kind: "alive", code: null };
    return /^\d+$/.test(status ?? "") ? { kind: "dead", code: Number(status) } : { kind: "dead-unreaped", code: null };
  } catch (error) {
    if ((error as { kind?: string }).kind === "target_gone") return { kind: "gone", code: null };
    throw error;
  }
}

/** The pane's state at the end of the watch, from a fresh tmux read. */
export async function finalState(deps: WaitDeps, pane: PaneInfo): Promise<PaneProcess & { gone: boolean }> {
  try {
    const [row] = await deps.tmux.run(
      "display-message",
      "-p",
      "-t",
      pane.paneId,
      "#{pane_id}\x1f#{pane_dead}\x1f#{pane_dead_status}\x1f#{pane_pid}",
    );
    const [id, dead, status, pid] = (row ?? "").split("\x1f");
    if (id !== pane.paneId) return gone(pane);
    const fresh = { dead: dead === "1", exitCode: /^\d+$/.test(status) ? Number(status) : null, pid: Number(pid) };
    return { ...await paneProcess(deps.proc, fresh), gone: false };
  } catch (error) {
    if ((error as { kind?: string }).kind !== "target_gone") throw error;
    return gone(pane);
  }
}

function gone(pane: PaneInfo): PaneProcess & { gone: boolean } {
  return { alive: false, exitCode: null, panePid: pane.pid, proc: null, gone: true };
}
