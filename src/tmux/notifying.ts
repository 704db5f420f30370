/**
 * The tmux commands whose effect tmux 3.3a (and every release before 3.7) announces to every
 * control client without checking that the client has finished identifying: a session made,
 * removed or renamed (`%sessions-changed`, `%session-renamed`), a window made current
 * (`%session-window-changed`), a pane made active (`%window-pane-changed`), a mode entered or
 * left (`%pane-mode-changed`), a client ending (`%client-detached`). Written while a control
 * client identifies, any of them crashes the tmux server (docs/DECISIONS.md, "The tmux crash
 * under link churn"), so these go only through `TmuxServer.guarded`, under the session lock
 * every attach takes too. Measured with plain tmux commands against a loop of control-client
 * attaches (tests/notifying_test.ts): each of these crashed it, `new-window -d`, `split-window
 * -d`, killing a window that is not current and setting options did not.
 */
const ALWAYS = new Set([
  "new-session",
  "kill-session",
  "rename-session",
  "select-window",
  "next-window",
  "previous-window",
  "last-window",
  "last-pane",
  "copy-mode",
  "detach-client",
  "break-pane",
  "join-pane",
  "move-pane",
  "move-window",
  "swap-window",
  "link-window",
  "unlink-window",
  "kill-window",
  "kill-pane",
  "rotate-window",
  "respawn-window",
  "respawn-pane",
  "choose-tree",
  "choose-client",
  "choose-buffer",
]);

/** The flags of these commands that take a value (tmux's getopt strings, 3.3a). */
const VALUED: Record<string, string> = {
  "new-window": "cenFt",
  "split-window": "celFpt",
  "swap-pane": "st",
  "select-pane": "tT",
  "send-keys": "cNt",
};

/** Whether `flag` is among the command's flags, read as tmux reads them (joined `-dP`, up to `--` or the first word). */
function hasFlag(args: readonly string[], flag: string): boolean {
  const valued = VALUED[args[0]] ?? "";
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--" || !arg.startsWith("-") || arg === "-") return false;
    for (let at = 1; at < arg.length; at++) {
      if (arg[at] === flag) return true;
      if (valued.includes(arg[at])) {
        if (at === arg.length - 1) i++; // the value is the next word; else the rest of this one
        break;
      }
    }
  }
  return false;
}

/** Whether this tmux command (an argument vector, the command's name first) can notify every control client. */
export function notifiesEveryClient(args: readonly string[]): boolean {
  const [name] = args;
  if (ALWAYS.has(name)) return true;
  switch (name) {
    case "new-window":
    case "split-window":
    case "swap-pane":
      return !hasFlag(args, "d"); // -d: the current window and the active pane stay as they were
    case "select-pane":
      return !hasFlag(args, "T"); // -T only sets the title
    case "send-keys":
      return hasFlag(args, "X"); // a copy-mode command can leave the mode
    default:
      return false;
  }
}
