/**
 * The tmux server's session lock, and the link script behind which every control client runs, on
 * a host and locally alike (src/tmux/local_link.ts). tmux before 3.7 crashes (the whole server, every session
 * on it) when a notification that every control client gets (a session made or removed, a client
 * ending, a window or pane made current, a mode entered) is written while a control client is
 * still identifying (docs/DECISIONS.md, "The tmux crash under link churn"). On a host, servers of
 * other machines attach their links, end them and change sessions there, so the guard lives on
 * the host: a lock every tmuxwright step there takes around what can send such a notification,
 * and around its own attach until tmux lists the new client.
 *
 * The lock is a symbolic link `tmuxwright-lock` in the user's tmux directory there, naming its
 * holder (`pid:N`): `ln -s` makes it or fails at once, on every POSIX system (no flock(1), which
 * macOS lacks). A lock whose holder is gone, or that is older than a minute (a pid reused), is
 * taken away under a second such link, so a holder that dies never leaves it taken. A step never
 * runs without the lock: one that cannot have it in time fails and says so.
 *
 * The text here goes inside `sh -c '…'` through the user's login shell (one line; no `'`, `\`,
 * `!` or `%`: csh expands `!` even in single quotes) and into run-shell scripts.
 */

import { WINDOW_SIZE } from "./dialect.ts";
import { SWEEP_FUNCTIONS } from "./sweep.ts";

/** The lock's name in the user's tmux directory on the host (a symbolic link while held). */
export const HOST_LOCK_NAME = "tmuxwright-lock";

/**
 * sh text (one line) that defines `tw_lock TRIES` (tries 20 ms apart; sets `g=1` and returns 0
 * once held, returns 1 if it was not free in time) and `tw_unlock` (lets go of a lock this shell
 * holds), and `$d`, the tmux server's socket directory.
 */
export const LOCK_FUNCTIONS = [
  // A script tmux runs (run-shell) has TMUX naming its socket: the lock is beside it. Else the default socket's directory.
  'if [ -n "${TMUX:-}" ]; then d=$(IFS=,; set -f; set -- $TMUX; dirname "$1"); else d="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"; fi',
  '[ -d "$d" ] || mkdir -m 700 "$d" 2>/dev/null',
  `L="$d/${HOST_LOCK_NAME}"`,
  // A holder is gone when its pid is, or when the lock is over a minute old (every holder lets go within seconds).
  'tw_stale() { o=$(readlink "$1" 2>/dev/null) || return 1; kill -0 "${o#pid:}" 2>/dev/null || return 0; ' +
  '[ -n "$(find "$1" -mmin +1 2>/dev/null)" ]; }',
  // A directory where no lock can be made (not this user's to write) cannot be waited on: the step goes ahead.
  // Whether its holder is gone is asked every 25th try (half a second): each look is processes competing with the holder.
  'tw_break() { if ln -s "pid:$$" "$L.break" 2>/dev/null; then [ "$(readlink "$L" 2>/dev/null)" = "$o" ] && rm -f "$L"; ' +
  'rm -f "$L.break"; elif tw_stale "$L.break"; then rm -f "$L.break"; fi; }',
  'tw_lock() { g=0; i=0; j=0; [ -w "$d" ] || return 0; while [ "$i" -lt "$1" ]; do ' +
  'ln -s "pid:$$" "$L" 2>/dev/null && { g=1; return 0; }; j=$((j + 1)); ' +
  'if [ "$j" -ge 25 ]; then j=0; tw_stale "$L" && tw_break; fi; i=$((i + 1)); sleep 0.02; done; return 1; }',
  // Every holder lets go within seconds, long before anyone may take its lock as stale: it is still its own.
  'tw_unlock() { [ "$g" = 1 ] && rm -f "$L"; g=0; }',
].join("; ");

/**
 * How long a link's attach waits for the lock (20 ms tries): 10 s, then the link fails as the host
 * being busy (within the link's own connect limit, so the reason reaches the caller).
 */
export const ATTACH_TRIES = 500;
/** How long a link's end waits: a minute (a lock held longer is taken from its holder as stale). */
export const END_TRIES = 3000;

/** The line a link's script prints to stderr when the host's lock stayed taken (read by the link's failure). */
export const HOST_BUSY = "tmuxwright: host-busy";

/** Why a link could not attach, when its script said the lock stayed taken; null when it did not say so. */
export function hostBusyReason(stderr: string): string | null {
  const busy = new RegExp(`^${HOST_BUSY} ?(.*)$`, "m").exec(stderr);
  if (!busy) return null;
  return `the session lock there stayed taken for 10 s (held by ${busy[1] || "an unknown holder"}): ` +
    "other tmuxwright servers are attaching or ending there";
}

/**
 * A run-shell script that runs `body` under the lock, waiting at most `tries` × 20 ms for it
 * (exit 75 and no step when it stays taken), then asks tmux for one more command before letting
 * go: tmux tells control clients of a change only after the command that made it has answered.
 * `body` is sh text; build tmux commands in it with `tmuxWords`.
 */
export function underHostLock(body: string, tries: number): string {
  return [
    LOCK_FUNCTIONS,
    `tw_lock ${tries} || exit 75`,
    body,
    "s=$?",
    "tmux -u list-sessions >/dev/null 2>&1",
    "tw_unlock",
    'exit "$s"',
  ].join("\n");
}

/**
 * tmux commands, run by one tmux client, for a script run by tmux (`run-shell`): each word
 * single-quoted, `%` written as `$P` (run-shell scripts keep `%` out; `P` is set in the same
 * line), commands apart by tmux's `;` word (a word that is `;` itself is written `\;`).
 */
export function tmuxWords(commands: readonly (readonly string[])[]): string {
  const percent = commands.some((args) => args.some((arg) => arg.includes("%")));
  const word = (arg: string) => `'${(arg === ";" ? "\\;" : arg).replaceAll("'", `'"'"'`).replaceAll("%", `'"$P"'`)}'`;
  const tmux = `tmux -u ${commands.map((args) => args.map(word).join(" ")).join(" ';' ")}`;
  return percent ? `P=$(printf '\\045'); ${tmux}` : tmux;
}

/**
 * A script run by tmux that ends one owner's workspace (`instance`, `<pid>-<hex>`) with the
 * processes in it, as its clean end: under the lock (`tries` of 20 ms; exit 75 when it stays
 * taken) its sessions and panes go, and what survives of their processes is stopped in the
 * background a moment later (src/tmux/sweep.ts).
 */
export function endOwnerScript(instance: string, tries: number): string {
  if (!/^\d+-[0-9a-f]+$/.test(instance)) throw new RangeError(`unsafe instance ${JSON.stringify(instance)}`);
  return [
    LOCK_FUNCTIONS,
    SWEEP_FUNCTIONS,
    `tw_lock ${tries} || exit 75`,
    `tw_owner ${instance}`,
    "tmux -u list-sessions >/dev/null 2>&1",
    "tw_unlock",
  ].join("\n");
}

/** What a link script attaches: the session, and the tmux client's command (sh words, no redirections). */
export interface LinkAttach {
  session: string;
  /** e.g. `tmux -u -C attach-session -t =NAME`. */
  client: string;
  /** Make `session` (a host's hub) unless it exists; else it must exist. */
  makeHub: boolean;
  /**
   * What is left behind when the link ends without a goodbye. `hub`: a host's hub, whose server
   * may come back within its lease (a dropped connection) or not (it was killed): once the lease
   * has passed with no control client back on it, the hub goes with its processes. `ownerPid`:
   * this machine's server process; once it is gone (killed), every session and pane of its
   * owners (instances `<pid>-…`) goes with its processes. Nothing goes while any is kept.
   */
  orphans: "hub" | { ownerPid: number };
}

/**
 * A control client's link script (one line, see above), run with its stdin and stdout as the
 * link: under the lock, makes the hub unless it exists, then starts the tmux client behind two
 * relays and lets go of the lock once tmux lists the client. The relays make the end guarded
 * whatever happens to the link: the link's input is copied into the client's by `cat`, so when
 * it ends (the server closed it, was killed, or the connection dropped) this script takes the
 * lock, removes the session if the server asked for that (`@tmuxwright_end kill`), ends the
 * client by closing its input (killing it if it has not gone within 2 s), waits for it to go,
 * and lets go; the client's output is copied out by `cat` and, once nobody reads it, drained, so
 * tmux never sees a broken pipe. Exits 75 (`HOST_BUSY` on stderr) when the lock stayed taken, 1
 * when the hub could not be made.
 */
export function linkScript(attach: LinkAttach): string {
  const { session } = attach;
  const tmux = "tmux -u";
  const hub = attach.makeHub
    ? [
      // The hub's first pane is marked as the hub's from the start: no listing shows it, whoever dialled.
      `${tmux} has-session -t =${session} 2>/dev/null || { ${tmux} new-session -d -s ${session} -x ${WINDOW_SIZE.width} -y ${WINDOW_SIZE.height} && ` +
      `${tmux} set-option -p -t =${session}: @tmuxwright_hub 1; } || { tw_unlock; exit 1; }`,
    ]
    : [];
  return oneLine([
    LOCK_FUNCTIONS,
    SWEEP_FUNCTIONS,
    `tw_lock ${ATTACH_TRIES} || { echo "${HOST_BUSY} $(readlink "$L" 2>/dev/null)" >&2; exit 75; }`,
    ...hub,
    'f=$(mktemp -d "$d/tmuxwright-link.XXXXXX") && mkfifo "$f/i" "$f/o" || { tw_unlock; exit 1; }',
    // The client's stderr goes nowhere: a write to a dropped link's stderr would kill it (an unguarded end).
    // TMUX emptied: a script tmux runs has it, and tmux refuses to attach "nested" clients.
    `TMUX= ${attach.client} <"$f/i" >"$f/o" 2>/dev/null &`,
    "t=$!",
    '{ cat; cat >/dev/null; } <"$f/o" &',
    'exec 3>"$f/i" >/dev/null 2>&1',
    // Lets go once the client is attached (it has its control state then), or has gone.
    `{ i=0; while [ "$i" -lt 400 ] && kill -0 "$t" 2>/dev/null; do ` +
    `${tmux} list-clients -F "#{client_pid}" 2>/dev/null | grep -qx "$t" && break; sleep 0.01; i=$((i + 1)); done; ` +
    // The fifos' names go once both ends of each are open (tmux opens its output only once the input is).
    'tw_unlock; rm -rf "$f"; } 3>&- &',
    "cat >&3",
    `tw_lock ${END_TRIES}`,
    // A goodbye: the server asked for its hub to go (with its processes), or kept it.
    `e=$(${tmux} show-options -v -t =${session}: @tmuxwright_end 2>/dev/null)`,
    `[ "$e" = kill ] && tw_hub ${session}`,
    "exec 3>&-",
    // Waited for as it goes (a client that has not gone within 2 s is killed).
    '{ sleep 2; kill -9 "$t"; } >/dev/null 2>&1 &',
    "k=$!",
    'wait "$t"',
    'kill "$k" 2>/dev/null',
    `${tmux} list-sessions >/dev/null 2>&1`,
    "tw_unlock",
    'rm -rf "$f"',
    orphansStep(attach),
  ]);
}

/**
 * What the link's end does without a goodbye (see LinkAttach.orphans). A hub's wait for its lease
 * goes on in the background, so the link's program (ssh, `exec`) ends now.
 */
function orphansStep(attach: LinkAttach): string {
  const sweep = (find: string) =>
    `tw_lock ${END_TRIES} && { ${find}; tmux -u list-sessions >/dev/null 2>&1; tw_unlock; }`;
  if (attach.orphans === "hub") {
    const { session } = attach;
    return `[ "$e" = kill ] || ( tw_lease ${session} && ${sweep(`tw_hub ${session}`)} ) </dev/null >/dev/null 2>&1 &`;
  }
  const pid = Math.floor(attach.orphans.ownerPid);
  return `tw_gone ${pid} && ${sweep(`tw_owner ${pid}-`)}`;
}

/** sh commands on one line: `;` after each, but for one sent to the background (`&` ends it already). */
function oneLine(commands: readonly string[]): string {
  return commands.map((command) => command.endsWith("&") ? command : `${command};`).join(" ");
}
