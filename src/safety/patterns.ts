import * as z from "zod";

/**
 * Strict patterns for every identifier an agent can pass. They are checked by the tool schemas
 * before a handler runs, so tmux never sees a value outside these sets. Messages never echo the
 * value: it may be a secret pasted into the wrong field.
 */
export const PANE_ID = /^%\d{1,9}$/;
export const WINDOW_ID = /^@\d{1,9}$/;
export const SESSION_ID = /^\$\d{1,9}$/;

/** Names people give to panes, windows and sessions: ASCII letters, digits, space and `_ . - + @ = , /`. */
export const NAME = /^[A-Za-z0-9_][A-Za-z0-9 _.+@=,\/-]{0,127}$/;
/** Session names: as NAME, without `.` and `:` (tmux target separators). */
export const SESSION_NAME = /^[A-Za-z0-9_][A-Za-z0-9 _+@=,\/-]{0,127}$/;
/** A window by position: `session:index`, the session by name or `$N`. */
export const WINDOW_INDEX = /^(?:\$\d{1,9}|[A-Za-z0-9_][A-Za-z0-9 _+@=,\/-]{0,127}):\d{1,6}$/;
/** A tmux layout string as list_windows returns it (checksum, then sizes and offsets). */
export const LAYOUT = /^[0-9a-f]{4},[0-9x,\[\]{}]{1,4000}$/;
/** A tmux socket name (`tmux -L`). */
export const SOCKET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
/** Buffer and wait-for channel names. */
export const BUFFER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
export const CHANNEL_NAME = BUFFER_NAME;
/** tmux options (`history-limit`, `status-left`, `pane-border-format[0]`) and user options (`@my_option`). */
export const OPTION_NAME = /^(?:[a-z][a-z0-9-]{0,63}(?:\[\d{1,4}\])?|@[A-Za-z0-9_-]{1,64})$/;
/** One key token before normalisation (keys.ts decides which tokens are real keys). */
export const KEY_TOKEN = /^[\x21-\x7e]{1,32}$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** An absolute path without control characters. */
// deno-lint-ignore no-control-regex
export const ABSOLUTE_PATH = /^\/[^\x00-\x1f\x7f]{0,4095}$/;

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
/** `#(` runs a shell job; `E:`/`T:` expand a value again as a format, which could hold a `#(`. */
const FORMAT_JOB = /#\(/;
const FORMAT_REEXPAND = /#\{(?:[^:}]*;)?[ET][:;]/;
/** `s/…/…/` and the `/r` forms of `m` and `C` run tmux's regex engine, which is not linear in time. */
const FORMAT_REGEX = /#\{[^}]*?(?:\bs\/|\b[mC]\/[a-z]*r)/;

/** Why a tmux format string given to a read-only tool is refused, or null when it is safe. */
export function formatProblem(format: string): string | null {
  if (format.length > 2000) return "longer than 2000 characters";
  if (CONTROL.test(format)) return "contains control characters";
  if (FORMAT_JOB.test(format)) return "#( ) runs shell commands and is not allowed";
  if (FORMAT_REEXPAND.test(format)) return "the E: and T: modifiers re-expand values and are not allowed";
  if (FORMAT_REGEX.test(format)) return "regular expressions (s/, m/r, C/r) are not allowed; use m: or C: without r";
  return null;
}

const ref = (pattern: RegExp, message: string, max = 128) => z.string().min(1).max(max).regex(pattern, { message });

export const paneRef = z.string().min(1).max(128).refine((v) => PANE_ID.test(v) || NAME.test(v), {
  message: 'expected a pane id like "%3" or a pane name (letters, digits, space, _ . - + @ = , /)',
});
export const windowRef = z.string().min(1).max(128).refine((v) => WINDOW_ID.test(v) || NAME.test(v), {
  message: 'expected a window id like "@3" or a window name (letters, digits, space, _ . - + @ = , /)',
});
export const sessionRef = z.string().min(1).max(128).refine((v) => SESSION_ID.test(v) || SESSION_NAME.test(v), {
  message: 'expected a session id like "$1" or a session name (letters, digits, space, _ - + @ = , /)',
});
export const windowTarget = z.string().min(1).max(140).refine((v) => WINDOW_ID.test(v) || WINDOW_INDEX.test(v), {
  message: 'expected a window id like "@3" or session:index like "dev:1"',
});
/** Free text shown to people (titles, messages): no control characters except tab and newline where allowed. */
export const displayText = (max: number) =>
  z.string().max(max).refine((v) => !CONTROL.test(v), { message: "must not contain control characters" });
export const socketArg = z.string().min(1).max(4096).refine((v) => SOCKET_NAME.test(v) || ABSOLUTE_PATH.test(v), {
  message: "expected a socket name from list_servers or an absolute socket path",
});
export const nameArg = ref(
  NAME,
  "expected a name of letters, digits, space, _ . - + @ = , / (not starting with a symbol)",
);
export const sessionNameArg = ref(SESSION_NAME, "expected a name of letters, digits, space, _ - + @ = , /");
export const bufferNameArg = ref(BUFFER_NAME, "expected letters, digits, _ . - (up to 64)", 64);
export const channelNameArg = ref(CHANNEL_NAME, "expected letters, digits, _ . - (up to 64)", 64);
export const optionNameArg = ref(OPTION_NAME, "expected a tmux option name like history-limit or @my_option", 80);
export const keyArg = ref(KEY_TOKEN, "expected a key name such as Enter, C-c, Up or F5", 32);
export const envNameArg = ref(ENV_NAME, "expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
export const absolutePathArg = ref(ABSOLUTE_PATH, "expected an absolute path without control characters", 4096);
export const formatArg = z.string().min(1).max(2000).superRefine((value, ctx) => {
  const problem = formatProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: `format ${problem}` });
});
