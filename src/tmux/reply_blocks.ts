/**
 * How many reply blocks (`%begin … %end` with flags 1) one command line gets on a control
 * connection. Almost every command gets one. `if-shell` gets its own and then one for the branch
 * it runs (tmux inserts the branch after it, on the same client): with both branches given (one
 * command each) that is always two. With one branch, whether a second block comes depends on the
 * condition, which cannot be known here: refused, rather than leaving the replies out of step.
 */
export function replyBlocks(command: readonly string[]): number {
  if (command[0] !== "if-shell") return 1;
  const positional: string[] = [];
  for (let i = 1; i < command.length; i++) {
    const arg = command[i];
    if (positional.length === 0 && arg.startsWith("-") && arg !== "-") {
      if (/t$/.test(arg)) i++; // -t TARGET (alone or after other flags: -bt)
      continue;
    }
    positional.push(arg);
  }
  if (positional.length !== 3) throw new RangeError("if-shell on a control connection needs both of its branches");
  return 2;
}
