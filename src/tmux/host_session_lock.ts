/**
 * The host's side of the session guard (src/tmux/session_guard.ts). tmux 3.3a crashes when a
 * session is created or removed while a control client attaches; on a host, tmuxwright servers
 * of other machines create their hubs as their links attach, remove them when they end, and
 * remove gone servers' hubs, so the guard has to live on the host: an exclusive `flock` on a
 * file in the user's tmux directory there, taken by sh text the host runs. The lock is on fd 9
 * and goes with the last process holding it, so a holder that dies never leaves it taken. After
 * 3 s of waiting the step runs unguarded, and a host without flock(1) runs it unguarded too (as
 * before the guard; util-linux and busybox have it). Every tmux client run while the lock is held
 * closes fd 9 (`9>&-`): a tmux server it starts would otherwise inherit the lock and hold it for good.
 *
 * The text here goes inside `sh -c '…'` (no `'`, `\`, `!`) and into run-shell scripts (no `%`).
 */

/** The lock's file in the user's tmux directory on the host; it stays there (every server there shares it). */
export const HOST_LOCK_FILE = "tmuxwright-sessions.lock";

/** sh text that takes the lock on fd 9 when it can and sets `g=1` when it holds it; one line. */
export const TAKE_HOST_LOCK = [
  'd="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"',
  '[ -d "$d" ] || mkdir -m 700 "$d" 2>/dev/null',
  `g=; if command -v flock >/dev/null 2>&1 && [ -w "$d" ]; then exec 9>>"$d/${HOST_LOCK_FILE}" && ` +
  "flock -w 3 9 && g=1; fi",
].join("; ");

/**
 * The end of a control connection's remote script, after TAKE_HOST_LOCK: `exec`s `attach` (the
 * tmux client keeps the script's pid) with the lock handed to a helper that holds it until tmux
 * lists that client as attached, which it does only once the client has its control state (the
 * helper gives up after ~2.5 s). One line.
 */
export function attachReleasingHostLock(attach: string): string {
  // It also stops when the client has gone (a link can attach, run and end between two looks).
  const release = 'i=0; while [ "$i" -lt 100 ] && kill -0 "$$" 2>/dev/null; do ' +
    'tmux -u list-clients -F "#{client_pid}" 2>/dev/null 9>&- | grep -qx "$$" && break; sleep 0.02; i=$((i + 1)); done';
  return `[ -z "$g" ] || ( ${release} ) </dev/null >/dev/null 2>&1 & exec ${attach} 9>&-`;
}
