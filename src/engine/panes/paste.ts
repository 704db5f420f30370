import type { TmuxServer } from "../../tmux/server.ts";
import { pasteBufferIfAlive } from "../../tmux/guarded_paste.ts";
import { ToolError } from "../errors.ts";

/**
 * Pastes text into a pane the way a terminal paste does: through a buffer named
 * `tmuxwright-<pid>-<n>` (namespaced to this server, unique per call), with bracketed-paste
 * markers when the application asked for them, so a shell takes a multi-line script as one
 * input instead of running it line by line. The buffer is deleted afterwards, also on error.
 */
export class Paster {
  #count = 0;

  constructor(private readonly tmux: TmuxServer, private readonly ownerPid: number) {}

  async paste(
    paneId: string,
    text: string,
    options: { bracketed: boolean; enter: boolean },
  ): Promise<{ buffer: string }> {
    const buffer = `tmuxwright-${this.ownerPid}-${++this.#count}`;
    const tmux = this.tmux;
    // -d deletes the buffer once pasted; -r is not given, so \n becomes \r as typed keys would.
    try {
      await tmux.run("set-buffer", "-b", buffer, "--", text);
      if (!await pasteBufferIfAlive(tmux, buffer, paneId, options.bracketed)) {
        throw new ToolError(
          "PANE_DEAD",
          `Cannot paste into pane ${paneId}: its process has exited`,
          "Read its output with capture_pane; create_pane starts a new one.",
        );
      }
      if (options.enter) await tmux.run("send-keys", "-t", paneId, "Enter");
    } catch (error) {
      await tmux.run("delete-buffer", "-b", buffer).catch(() => {}); // already gone when the paste worked
      throw error;
    }
    return { buffer };
  }
}
