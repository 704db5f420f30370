import type { TmuxServer } from "../../tmux/server.ts";
import { ACCEPT_KEY, type ShellMarks } from "../integration/mod.ts";
import type { ParkedStreams } from "./parked.ts";
import { OutputCollector } from "./collector.ts";
import { HookScanner } from "./hook_scanner.ts";
import { commandFile, quoteFor } from "./markers.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { follow, type Prepared } from "./follow.ts";
import type { CommandFiles } from "./command_files.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** How long an integrated shell may take to react to an accepted line (its S, E or C mark). */
const REACT_MS = 2_000;

/**
 * Types `text` into an integrated shell at its prompt, as it is: bash, zsh and fish get one
 * bracketed paste and the accept key; dash gets `__tw_run FILE` typed with the terminal's echo
 * off, which shows the command and runs the file. The shell's own marks say where its output
 * starts and ends; the stream is parked for the next command once it ended (parked.ts). An
 * incomplete text (an open quote) is seen here, and the line is cleared with Ctrl-C.
 */
export async function typeMarked(
  { tmux, files, parked }: { tmux: TmuxServer; files: CommandFiles; parked: ParkedStreams },
  prepared: Prepared,
  marks: ShellMarks,
  typing: { id: string; text: string; keepBytes?: number },
): Promise<Typed> {
  const { pane } = prepared;
  const { id, text, keepBytes } = typing;
  const scanner = new HookScanner(marks.nonce);
  const typed = follow(prepared, id, scanner, new OutputCollector(keepBytes), () => {}, (stream, m, last) => {
    parked.park(pane.paneId, pane.pid, stream, m.nonce, last);
  });
  try {
    if (marks.mode === "paste") {
      // The brackets go in the buffer itself: zsh draws its prompt (and its P mark) before it asks
      // the terminal for bracketed paste, so tmux's own bracketing (`-p`) could come too late.
      await tmux.batch([
        ["set-buffer", "-b", `tmuxwright-${id}`, "--", `${PASTE_START} ${text}${PASTE_END}`],
        ["paste-buffer", "-d", "-b", `tmuxwright-${id}`, "-t", pane.paneId],
        ["send-keys", "-t", pane.paneId, "-l", "--", ACCEPT_KEY],
      ]);
    } else {
      const file = await files.local(id);
      await Deno.writeTextFile(file, commandFile("posix", text), { mode: 0o600 });
      typed.onClose(() => Deno.remove(file).catch(() => {}));
      // Typed with echo off, so the pane shows the command `__tw_run` prints, not the call.
      await tmux.oneShot("run-shell", "-t", pane.paneId, "stty -echo < '#{pane_tty}'");
      await tmux.batch([
        ["send-keys", "-t", pane.paneId, "-l", "--", ` __tw_run ${quoteFor("posix", file)}`],
        ["send-keys", "-t", pane.paneId, "Enter"],
      ]);
    }
  } catch (error) {
    typed.close();
    throw error;
  }
  // The shell reacts at once (S, E or C); an incomplete text is seen here, before anyone waits on it.
  const deadline = performance.now() + REACT_MS;
  while (scanner.startEnd === null && !scanner.incomplete && performance.now() < deadline) {
    await wakeOn(typed.changed(), deadline - performance.now());
  }
  if (scanner.incomplete && marks.shell !== "fish") { // fish's accept key cleared the line itself
    await tmux.run("send-keys", "-t", pane.paneId, "C-c");
    const back = performance.now() + REACT_MS;
    while (!scanner.end && performance.now() < back) await wakeOn(typed.changed(), back - performance.now());
  }
  return typed;
}
