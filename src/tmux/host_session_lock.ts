/**
 * The host's side of the session guard (src/tmux/session_guard.ts). tmux 3.3a crashes when a
 * session is created or removed while a control client attaches; on a host, tmuxwright servers
 * of other machines create their hubs as their links attach, remove them when they end, and
 * remove gone servers' hubs, so the guard has to live on the host: an exclusive `flock` on a
 * file in the user's tmux directory there, taken by sh text the host runs. The lock is on fd 9
 * and goes with the last process holding it, so a holder that dies never leaves it taken. After
 * 3 s of waiting the step runs unguarded, and a host without flock(1) (util-linux and busybox
 * have it; macOS has not) runs it unguarded too, as before the guard. Every tmux client run while
 * the lock is held closes fd 9 (`9>&-`): a tmux server it starts would otherwise inherit the lock
 * and hold it for good.
 *
 * The text here goes inside `sh -c '…'` (no `'`, `\`, `!`) and into run-shell scripts (no `%`).
 */

/** The lock's file in the user's tmux directory on the host; it stays there (every server there shares it). */
export const HOST_LOCK_FILE = "tmuxwright-sessions.lock";

/**
 * sh text that takes the lock on fd 9, trying `tries` times 20 ms apart (busybox's flock has no
 * `-w`); one line. Sets `g=1` when it holds it, `g=0` when it is busy, and leaves `g` empty on a
 * host where it cannot be had at all (no flock(1), an open that fails: a failed `exec`
 * redirection would end sh).
 */
function takeHostLock(tries: number): string {
  return [
    'd="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"',
    '[ -d "$d" ] || mkdir -m 700 "$d" 2>/dev/null',
    "g=",
    `if command -v flock >/dev/null 2>&1 && [ -w "$d" ] && { command exec 9>>"$d/${HOST_LOCK_FILE}"; } 2>/dev/null; then ` +
    `g=0; i=0; while [ "$i" -lt ${tries} ]; do flock -n 9 2>/dev/null && { g=1; break; }; i=$((i + 1)); ` +
    `[ "$i" -lt ${tries} ] && sleep 0.02; done; fi`,
  ].join("; ");
}

/** Takes the lock, waiting ~3 s at most (then the step runs unguarded). */
export const TAKE_HOST_LOCK = takeHostLock(150);

/** Tries the lock once: a step that can wait for a later turn (the reaper) skips this one when `g` is 0. */
export const TRY_HOST_LOCK = takeHostLock(1);

/**
 * The end of a control connection's remote script, after TAKE_HOST_LOCK: `exec`s `attach` (the
 * tmux client keeps the script's pid) with the lock handed to a helper that holds it until tmux
 * lists that client as attached, which it does only once the client has its control state (the
 * helper gives up after ~2.5 s). The helper's output goes nowhere: ssh's own stays the client's.
 * One line.
 */
export function attachReleasingHostLock(attach: string): string {
  // It also stops when the client has gone (a link can attach, run and end between two looks).
  const release = 'i=0; while [ "$i" -lt 100 ] && kill -0 "$$" 2>/dev/null; do ' +
    'tmux -u list-clients -F "#{client_pid}" 2>/dev/null 9>&- | grep -qx "$$" && break; sleep 0.02; i=$((i + 1)); done';
  return `{ [ "$g" != 1 ] || ( ${release} ); } </dev/null >/dev/null 2>&1 & exec ${attach} 9>&-`;
}

/**
 * A run-shell script (its `#{…}` expanded by tmux for the link's own control client) that ends
 * that client under the lock: `end` removes its session or detaches it. tmux tells the other
 * control clients of an end only once the client process has gone, so the lock is held until it
 * has (at most ~2 s), then until one more tmux command has been served. Ends with `:` (a shell
 * that execs its last command would close fd 9 early).
 */
export function endClientUnderHostLock(end: "kill-session" | "detach-client", session: string): string {
  const step = end === "kill-session"
    ? `tmux -u kill-session -t =${session}`
    : 'tmux -u detach-client -t "#{client_name}"';
  return [
    TAKE_HOST_LOCK.replaceAll("#", "##"),
    "p=#{client_pid}",
    `${step} 9>&-`,
    'i=0; while kill -0 "$p" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.02; i=$((i + 1)); done',
    "tmux -u list-sessions >/dev/null 2>&1 9>&-",
    ":",
  ].join("; ");
}
