import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { foreground, type ShellKind, shellKind } from "./shell.ts";
import { SHELLS } from "../facts/mod.ts";

export type { ShellKind };

/** How long a new pane's shell may take to draw its first prompt before we type anyway. */
export const PROMPT_GRACE_MS = 10_000;
const POLL_MS = 2;
/** How often `untilShellDrawn` looks (a round trip on a host). */
const DRAWN_POLL_MS = 20;
/** How long a program must hold a pane's terminal before the pane is busy. */
const BUSY_SETTLE_MS = 100;

/**
 * Resolves with the shell's kind once a shell holds the pane's terminal and has drawn something
 * (its prompt). A foreground program that is not a shell fails at once (PANE_BUSY). A shell that
 * has drawn nothing yet (the start-up gate's `sh`, or `bash -c 'exec fish'` between the two) gets
 * a grace period so the right shell is seen and typed text is not read by start-up files.
 */
export async function waitForPrompt(
  tmux: TmuxServer,
  pane: PaneInfo,
  action: string,
  signal?: AbortSignal,
  fresh = false,
  /** False once the shell is known to have reached its prompt (a mark, an earlier command): it started. */
  mayBeStarting = true,
  /**
   * Asks the OS which program holds the terminal when tmux names a shell (tmux keeps the name of an
   * ended job): `kind: null` is a program that is not a shell, and the pane is treated as running it.
   */
  confirm?: (seen: { kind: ShellKind; name: string }) => Promise<{ kind: ShellKind | null; name: string }>,
): Promise<{ kind: ShellKind; name: string }> {
  const deadline = performance.now() + PROMPT_GRACE_MS;
  let busySince: number | null = null;
  for (;;) {
    const state = await foreground(tmux, pane.paneId);
    if (state.dead) {
      throw new ToolError(
        "PANE_DEAD",
        `Cannot ${action} pane ${pane.paneId}: its process has exited (status ${state.deadStatus ?? "unknown"})`,
        "Its output is still readable with capture_pane; omit pane_id to use the default pane, or create_pane.",
      );
    }
    let kind = shellKind(state.command);
    if (kind === null && isShell(state.command)) throw unsupported(pane, action, state.command);
    const late = performance.now() >= deadline;
    if (kind && (state.drawn || late)) {
      const confirmed = confirm ? await confirm({ kind, name: state.command }) : { kind, name: state.command };
      if (confirmed.kind !== null) return { kind: confirmed.kind, name: confirmed.name };
      kind = null;
      state.command = confirmed.name;
    }
    // The user's shell this server started a moment ago runs its start-up files, which may run
    // programs (yash's runs grep, many run ls or sleep): that pane is starting, not busy.
    const young = mayBeStarting &&
      (fresh || (pane.shellSince !== null && Date.now() - pane.shellSince < PROMPT_GRACE_MS));
    // An owned pane's start-up gate (`tmux wait-for`) can still hold the terminal for a moment after
    // create_pane returned: that pane is starting, not busy.
    const starting = young || (state.command === "tmux" && !state.drawn);
    // A program that is not a shell is busy at once, except in a pane whose shell is starting.
    // A program must hold the terminal a moment: the last command's end-mark `printf` (a program,
    // not a builtin, in mksh and tcsh) can still be exiting when its mark has been read.
    busySince = kind ? null : busySince ?? performance.now();
    const settled = busySince !== null && performance.now() - busySince >= BUSY_SETTLE_MS;
    if (!kind && settled && (late || !starting || (state.drawn && !young))) {
      throw new ToolError(
        "PANE_BUSY",
        `Cannot ${action} pane ${pane.paneId}: it is running ${JSON.stringify(state.command)}, ` +
          "not waiting at a shell prompt",
        "Wait for it (watch_pane), stop it with stop_process, use send_keys for programs that are not shells, " +
          "or omit pane_id to use the default pane.",
      );
    }
    if (signal?.aborted) signal.throwIfAborted();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * A shell this server started a moment ago may not have drawn its first prompt yet; an integrated
 * shell marks that prompt, and a `shell` wait of send_keys begun before it would take it for the
 * end of the input just sent (found by the randomized stress: `output: ""` at once). Resolves once
 * the shell has drawn something (`drawn`, as `waitForPrompt` reads it) or its pane died, within
 * PROMPT_GRACE_MS of the shell's start; at once for a pane whose shell this server did not start.
 */
export async function untilShellDrawn(tmux: TmuxServer, pane: PaneInfo, signal?: AbortSignal): Promise<void> {
  if (pane.shellSince === null) return;
  const deadline = pane.shellSince + PROMPT_GRACE_MS;
  while (Date.now() < deadline && !signal?.aborted) {
    const state = await foreground(tmux, pane.paneId);
    if (state.drawn || state.dead) return;
    await new Promise((r) => setTimeout(r, DRAWN_POLL_MS));
  }
}

function isShell(command: string): boolean {
  return SHELLS.has(command.replace(/^-/, "").replace(/^.*\//, ""));
}

/** A shell whose syntax has no way to run a file in itself and report its status as the wrapper needs. */
function unsupported(pane: PaneInfo, action: string, shell: string): ToolError {
  return new ToolError(
    "UNSUPPORTED_SHELL",
    `Cannot ${action} pane ${pane.paneId}: its shell ${JSON.stringify(shell)} is not one execute_command can drive ` +
      "(bash, zsh, fish, dash, sh, ash, ksh, mksh, ksh93, yash, busybox sh, tcsh, csh)",
    "Type into it with send_keys and read it with wait_for_text or capture_pane, or create_pane with " +
      'command: "bash" (or another supported shell) for execute_command.',
  );
}
