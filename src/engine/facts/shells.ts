/** Shells whose foreground presence means "at a prompt" (see `atShellPrompt`). */
export const SHELLS = new Set([
  "bash",
  "zsh",
  "fish",
  "sh",
  "dash",
  "ksh",
  "mksh",
  "ksh93",
  "tcsh",
  "csh",
  "ash",
  "busybox",
  "nu",
  "xonsh",
  "elvish",
  "pwsh",
  "yash",
  "oksh",
]);
// Shells whose line editor waits in select/poll or reads a dup of the terminal, never read(2) on fd 0.
export const LINE_EDITOR_SHELLS = new Set(["bash", "zsh", "fish", "nu", "xonsh", "elvish", "pwsh"]);
/**
 * Of those, the ones whose prompt never sleeps in a terminal read (zsh's does, on fd 10): where
 * only a wait channel is known (ps), such a shell reading the terminal runs a `read` builtin.
 */
const PROMPT_POLLS = new Set(["bash", "fish", "nu", "xonsh", "elvish", "pwsh"]);

export function isShell(command: string | null): boolean {
  return command !== null && SHELLS.has(command.replace(/^-/, ""));
}

/** A terminal read seen only by its wait channel: a `read` builtin when the shell's prompt never reads so. */
export function terminalReadIsBuiltin(command: string): boolean {
  return PROMPT_POLLS.has(command.replace(/^-/, ""));
}
