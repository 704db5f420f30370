import type { TmuxServer } from "./server.ts";

const PANE_ID = /^%\d{1,9}$/;
const BUFFER = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * `paste-buffer` into a pane whose process has exited crashes the whole tmux 3.3a server (and
 * every session on it). The check and the paste run as one `if-shell -F` in a separate tmux
 * process: tmux evaluates both in one pass of its command queue, so the pane cannot die in
 * between. Locally it runs in its own process; a host link runs it on its control connection,
 * which counts the reply block its branch adds (reply_blocks.ts).
 * Returns false, pasting nothing, when the pane is dead. The buffer is deleted once pasted unless `keep`.
 */
export async function pasteBufferIfAlive(
  tmux: TmuxServer,
  buffer: string,
  paneId: string,
  bracketed: boolean,
  options: { keep?: boolean } = {},
): Promise<boolean> {
  if (!PANE_ID.test(paneId) || !BUFFER.test(buffer)) throw new RangeError("invalid pane id or buffer name");
  const raw = (await tmux.dialect()).pasteNeedsRaw ? "-S " : ""; // 3.7+ would pass the text through vis(3)
  const paste = `paste-buffer ${raw}${options.keep ? "" : "-d "}${bracketed ? "-p " : ""}-b ${buffer} -t ${paneId}`;
  const out = await tmux.oneShot("if-shell", "-F", "-t", paneId, "#{pane_dead}", "display-message -p dead", paste);
  return out.trim() !== "dead";
}
