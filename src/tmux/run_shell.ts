import { escapeFormat } from "./quote.ts";
import { TmuxError } from "./errors.ts";

/** What a script run by `TmuxServer.runShell` printed, and how it exited. */
export interface ShellResult {
  stdout: string;
  status: number;
}

const TRAILER = "tw-status ";

/**
 * tmux's `run-shell` sends a script's output to a pane's view mode for control clients and
 * nowhere for a one-shot client (measured on tmux 3.3a), and only its exit status comes back.
 * So the script's stdout (in a subshell: its `exit` ends only it), then its status, are piped
 * into a paste buffer with `tmux load-buffer` (the job's `TMUX` names its own server), which the
 * next command shows and the last deletes. run-shell without `-b` holds the client's command queue until the script ends, so the
 * three commands can be written at once: one round trip.
 */
export function shellScriptCommands(script: string, buffer: string): string[][] {
  if (script.includes("%")) throw new RangeError("a run-shell script may not contain %");
  if (!/^[A-Za-z0-9_-]+$/.test(buffer)) throw new RangeError(`unsafe buffer name ${buffer}`);
  const wrapped = `{ ( ${script}\n) </dev/null 2>/dev/null; s=$?; echo; echo "${TRAILER}$s"; } | ` +
    `tmux load-buffer -b ${buffer} -`;
  return [["run-shell", escapeFormat(wrapped)], ["show-buffer", "-b", buffer], ["delete-buffer", "-b", buffer]];
}

/** The buffer's text back into stdout and status (the trailer's own newline is not the script's). */
export function parseShellResult(text: string): ShellResult {
  const at = text.lastIndexOf(`\n${TRAILER}`);
  // The job went with its tmux server (killed or exited while the script ran).
  if (at < 0) throw new TmuxError("server_gone", "tmux ended while a run-shell script was running");
  return { stdout: text.slice(0, at), status: Number.parseInt(text.slice(at + 1 + TRAILER.length), 10) };
}
