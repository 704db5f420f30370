/**
 * `send-keys` into a pane that is in a mode (copy mode, a chooser) runs that mode's key bindings
 * as the client that sent the keys. On a control client, a binding that opens a prompt (copy
 * mode's `t`, `f`, `g`, `/`, `:`) waits for an answer that client can never type, and every later
 * reply on the connection stalls (tmux 3.3a). So keys are always preceded by `copy-mode -q` on
 * their pane, which leaves any mode and does nothing otherwise: keys go to the program.
 */
export function modeExitBefore(command: readonly string[]): string[] | null {
  if (command[0] !== "send-keys") return null;
  let target: string | null = null;
  let keys = 0;
  for (let i = 1; i < command.length; i++) {
    const arg = command[i];
    if (arg === "--") {
      keys += command.length - i - 1;
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      keys++;
      continue;
    }
    if (arg.includes("X")) return null; // a copy-mode command (`-X cancel`), meant for the mode
    // The options taking a value: `-t PANE`, `-N COUNT` (or written together, `-tPANE`).
    const valued = /[tN]/.exec(arg);
    if (valued) {
      const attached = arg.slice(valued.index + 1);
      const value = attached !== "" ? attached : command[++i];
      if (valued[0] === "t") target = value ?? null;
    }
  }
  return keys > 0 && target !== null ? ["copy-mode", "-q", "-t", target] : null;
}
