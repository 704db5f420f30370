import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type ProcessFacts, readProcState } from "../facts/mod.ts";

/** The end of a shell's prompt as people set it: `$`, `#` or `%`, perhaps a space (not `>>>` or `In [1]:`). */
const SHELL_PROMPT = /[$#%] ?$/;
/** After a command's end mark the remote prompt is still on its way: looked for this long. */
const PROMPT_WAIT_MS = 2_000;
const LOOK_EVERY_MS = 50;

/**
 * Whether the pane's foreground `ssh` shows a remote shell waiting at its prompt: ssh itself
 * polls the terminal in raw mode (not a password question, which reads /dev/tty), the remote
 * screen is not a full-screen program's (tmux's alternate screen is off), and the cursor ends a
 * line that reads like a shell prompt. What runs on the other side is not visible here: a
 * program with a prompt that ends in `$`, `#` or `%` would be taken for the shell.
 */
export async function sshShellWaits(tmux: TmuxServer, proc: ProcessFacts, pane: PaneInfo): Promise<boolean> {
  if (pane.pid === null) return false;
  const deadline = performance.now() + PROMPT_WAIT_MS;
  for (;;) {
    const state = readProcState(await proc.look(pane.pid, { terminal: true }), pane.pid);
    if (state.fgCommand !== "ssh") return false;
    const [info] = await tmux.run(
      "display-message",
      "-p",
      "-t",
      pane.paneId,
      "#{alternate_on} #{cursor_y} #{cursor_x}",
    );
    const [alternate, y, x] = (info ?? "").split(" ");
    if (alternate !== "0" || !/^\d+$/.test(y ?? "") || !/^\d+$/.test(x ?? "")) return false;
    if (state.waitingForInput === null && state.rawTerminal === true) {
      const [line] = await tmux.run("capture-pane", "-p", "-t", pane.paneId, "-S", y, "-E", y);
      if (SHELL_PROMPT.test((line ?? "").slice(0, Number(x)).trimEnd() + " ")) return true;
    }
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
