import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";

/** Resolves after `ms`, or at once when `signal` fires. */
function wakeOn(signal: AbortSignal | undefined, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * The start-up gate holds an owned pane's program until its log pipe and options are set, so not
 * one byte is missed. It waits on a tmux *lock* (`wait-for -L`), not a signal: the server locks
 * the channel before the pane exists and unlocks it when the pane is ready. A signal that comes
 * before its waiter is remembered once and a second one drops the channel, so a gate could wait
 * forever; an unlock is never lost and unlocking again is harmless. Once through, the gate marks
 * its pane `@tmuxwright_started` (in the same tmux client), which the server waits for.
 */
export const STARTED_OPTION = "@tmuxwright_started";
export const GATE_SCRIPT = `tmux wait-for -L "$1" \\; set-option -p -t "$TMUX_PANE" ${STARTED_OPTION} 1 ` +
  '\\; wait-for -U "$1" 2>/dev/null; shift; exec "$@"';

/**
 * The row a pane started with a command begins on (`@tmuxwright_top`): its gate moves the cursor
 * down one row (CUD, nothing written) before the program runs. When a pane dies, tmux (every
 * version, server_destroy_pane) moves to the bottom row and feeds a line to write "Pane is dead",
 * which scrolls the screen: its top row goes into the history. A command that printed one line
 * and exited at once lost that line from the screen a person attaches to; the top row is now blank.
 */
export const TOP_OPTION = "@tmuxwright_top";
export const GATE_STEP_SCRIPT = GATE_SCRIPT.replace("; shift;", "; printf '\\033[B'; shift;");
/** The step as the pane's log sees it (its first bytes, left out of the log) and the rows it moves. */
export const GATE_STEP = { bytes: 3, rows: 1 } as const;

/** What tmux names a pane's foreground while the gate holds it. */
const GATE_COMMANDS = new Set(["sh", "tmux", ""]);

/** How long the server waits for the mark, and when it unlocks again meanwhile. */
export const GATE_TIMING = { deadlineMs: 10_000, retryAtMs: [1_000, 4_000] } as const;

/**
 * A channel no other pane, workspace, process or host shares or can guess: the owner's instance,
 * a count, and 64 random bits.
 */
export function gateChannel(instance: string, count: number): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0"));
  return `tmuxwright-gate-${instance}-${count}-${random.join("")}`;
}

/** Locks the channel: sent in the same batch as, and before, the command that creates the pane. */
export function lockCommand(channel: string): string[] {
  return ["wait-for", "-L", channel];
}

/** Lets the gate go; "not locked" means it was already let go (an earlier unlock), which is fine. */
export async function releaseGate(tmux: TmuxServer, channel: string): Promise<void> {
  await tmux.run("wait-for", "-U", channel).catch((error) => {
    if (!/not locked/.test((error as Error).message)) throw error;
  });
}

/**
 * Waits until the pane's program has started (the gate's mark, or the pane already dead); unlocks
 * again on the way in case the first unlock was lost with its connection. A pane that never
 * starts is killed and the create fails with PANE_NOT_STARTED. False when `signal` (the call's
 * deadline) fired first: the gate is unlocked and the program starts on its own time.
 */
export async function confirmStarted(
  tmux: TmuxServer,
  paneId: string,
  channel: string,
  timing: { deadlineMs: number; retryAtMs: readonly number[] } = GATE_TIMING,
  signal?: AbortSignal,
): Promise<boolean> {
  const start = performance.now();
  const retries = [...timing.retryAtMs];
  let pause = 2;
  for (;;) {
    const format = `#{${STARTED_OPTION}}\x1f#{pane_dead}\x1f#{pane_current_command}`;
    const [line] = await tmux.run("display-message", "-p", "-t", paneId, format);
    const [mark, dead, command] = (line ?? "").split("\x1f");
    if (mark === "1" || dead === "1") return true;
    // The gate's own tmux failed at once (no tmux on the call's PATH): the program runs unmarked.
    if (performance.now() - start >= timing.retryAtMs[0] && !GATE_COMMANDS.has(command)) return true;
    if (signal?.aborted) return false;
    const waited = performance.now() - start;
    if (waited >= timing.deadlineMs) break;
    if (retries.length > 0 && waited >= retries[0]) {
      retries.shift();
      await releaseGate(tmux, channel).catch(() => {});
    }
    await wakeOn(signal, pause);
    pause = Math.min(pause * 2, 100);
  }
  await tmux.guarded([["kill-pane", "-t", paneId]]).catch(() => {}); // it would hold a shell that never runs for nobody
  throw new ToolError(
    "PANE_NOT_STARTED",
    `Cannot start the pane's program: pane ${paneId} stayed in its start-up gate for ${timing.deadlineMs} ms ` +
      "(the gate's tmux client never got through); the pane was removed",
    "Retry create_pane; if it persists, check that tmux runs in a new pane (PATH, TMUX in env) with tmuxwright doctor.",
  );
}
