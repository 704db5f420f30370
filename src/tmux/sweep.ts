/**
 * What a tmuxwright server leaves on a tmux server when it ends, swept by scripts that run where
 * that tmux server runs (run by tmux locally, by the link's sh on a host): an owner's sessions and
 * panes, and the processes started in them. Killing a pane hangs up its terminal, which ends what
 * runs in front; what ignores the hang-up (`nohup`, a trap, a job of a shell that does not pass it
 * on) would live on for nobody, so the panes' process trees are read first (one `ps`) and what is
 * left of them a moment after the kill gets SIGTERM, then SIGKILL a second later, in the
 * background. Session changes run under the tmux server's session lock (host_session_lock.ts),
 * taken by the caller.
 *
 * The text is one line of sh with no `'`, `\`, `!` or `%` (it goes into `sh -c '…'` through any
 * login shell, and into run-shell scripts), and uses only what tmux 3.2a has.
 */

/**
 * sh text (one line) defining:
 * - `tw_tree PID…`: the pids and all their descendants (from `ps`; the pids alone without it);
 * - `tw_stop PID…`: in the background, SIGTERM to those alive 0.3 s from now (after the kills that
 *   follow it: the last session killed can end the tmux server, and this script with it), SIGKILL
 *   a second later;
 * - `tw_gone PID`: whether the process has ended (or is a zombie), looking for 0.3 s (a killed
 *   process closes its files, then ends: the link's input ends a moment before it is gone);
 * - `tw_owner PREFIX` (lock held): kills the sessions and panes of the owners whose instance
 *   starts with PREFIX (`<pid>-`: every owner of a process; `<pid>-<hex>`: one), nothing when any
 *   of their sessions is kept, and stops their process trees;
 * - `tw_trees SESSION`: stops the process trees of SESSION's panes (read now, before it is killed);
 * - `tw_hub HUB` (lock held): kills the session HUB and stops its panes' process trees;
 * - `tw_lease HUB`: waits while HUB's lease runs with no control client back on it (one that was
 *   not there when the wait began); true when it passed, false when a client came back, it is
 *   kept, it is gone, or it has no lease (a link made without one, as the CLI's: never taken by a
 *   lease, as the reaper never takes it).
 */
export const SWEEP_FUNCTIONS = [
  'tw_tree() { [ -n "$*" ] || return 0; k=" $* "; m=$(ps -A -o pid= -o ppid= 2>/dev/null) || { echo "$*"; return 0; }; c=1; ' +
  'while [ "$c" = 1 ]; do c=0; set -f; set -- $m; set +f; while [ "$#" -ge 2 ]; do ' +
  'case "$k" in *" $2 "*) case "$k" in *" $1 "*) ;; *) k="$k$1 "; c=1;; esac;; esac; shift 2; done; done; echo $k; }',
  'tw_stop() { [ -n "$*" ] || return 0; ( sleep 0.3; kill -TERM $* 2>/dev/null; i=0; while [ "$i" -lt 20 ]; do a=; ' +
  'for p in $*; do kill -0 "$p" 2>/dev/null && a="$a $p"; done; [ -z "$a" ] && exit 0; sleep 0.05; i=$((i + 1)); done; ' +
  "kill -KILL $a 2>/dev/null ) </dev/null >/dev/null 2>&1 & }",
  'tw_gone() { i=0; while [ "$i" -lt 6 ]; do kill -0 "$1" 2>/dev/null || return 0; ' +
  's=$(ps -o stat= -p "$1" 2>/dev/null) && case "$s" in *Z*) return 0;; esac; sleep 0.05; i=$((i + 1)); done; return 1; }',
  'tw_owner() { tmux -u list-sessions -F "#{@tmuxwright_kept} #{@tmuxwright_workspace_instance}" 2>/dev/null | ' +
  'grep -q "^1 $1" && return 0; s=$(tmux -u list-sessions -F "#{@tmuxwright_workspace_instance} #{session_name}" ' +
  '2>/dev/null | grep "^$1[^ ]* " | cut -d" " -f2); a=$(tmux -u list-panes -a -F ' +
  '"#{pane_dead} #{pane_id} #{pane_pid} #{@tmuxwright_instance} #{session_name}" 2>/dev/null); ' +
  'p=$(echo "$a" | grep "^0 [^ ]* [^ ]* $1[^ ]* "); q=$(echo "$p" | cut -d" " -f3); ' +
  'for x in $s; do q="$q $(echo "$a" | grep "^0 .* $x$" | cut -d" " -f3)"; done; tw_stop $(tw_tree $q); ' +
  'for x in $s; do tmux -u kill-session -t "=$x" 2>/dev/null; done; ' +
  'for x in $(echo "$p" | cut -d" " -f2); do tmux -u kill-pane -t "$x" 2>/dev/null; done; }',
  'tw_trees() { tw_stop $(tw_tree $(tmux -u list-panes -s -t "=$1" -F "#{pane_dead} #{pane_pid}" 2>/dev/null | ' +
  'grep "^0 " | cut -d" " -f2)); }',
  'tw_hub() { tw_trees "$1"; tmux -u kill-session -t "=$1" 2>/dev/null; }',
  // The control clients on the hub when the wait starts are ending with this one (a server's other links): only
  // one that attaches after that is a client back.
  'tw_ctl() { tmux -u list-clients -t "=$1" -F "#{client_control_mode} #{client_pid}" 2>/dev/null | grep "^1 "; }',
  'tw_lease() { o=$(tw_ctl "$1"); while :; do ' +
  'v=$(tmux -u display-message -p -t "=$1:" "#{@tmuxwright_kept}:#{@tmuxwright_lease}" ' +
  '2>/dev/null) || return 1; [ "$(echo "$v" | cut -d: -f1)" = 1 ] && return 1; ' +
  'tw_ctl "$1" | grep -qvxF "$o" && return 1; ' +
  'l=$(echo "$v" | cut -d: -f2); [ "$l" -ge 0 ] 2>/dev/null || return 1; ' +
  '[ "$l" -lt "$(awk "BEGIN { srand(); print srand() }")" ] && return 0; sleep 1; done; }',
].join("; ");

/**
 * A run-shell script that stops the process trees of a session's panes a moment from now: run
 * just before the session is killed (in the same guarded step), so what ignores the hang-up goes
 * too. The session by name (letters, digits, `_`, `.`, `-`).
 */
export function stopSessionTreesScript(session: string): string {
  if (!/^[\w.-]+$/.test(session)) throw new RangeError(`unsafe session name ${JSON.stringify(session)}`);
  return `${SWEEP_FUNCTIONS}; tw_trees ${session}`;
}
