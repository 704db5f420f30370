import { join } from "node:path";
import { escapeFormat } from "../../tmux/quote.ts";

/** Where owned panes' raw output goes: one append-only file per pane instance. */
export function logDir(stateDir: string): string {
  return join(stateDir, "logs");
}

export function logPathFor(stateDir: string, ownerPid: number, paneId: string): string {
  const stamp = Date.now().toString(36);
  return join(logDir(stateDir), `${ownerPid}-${paneId.slice(1)}-${stamp}.log`);
}

/**
 * The `pipe-pane` command that appends a pane's output to its log. tmux runs it with `sh -c`
 * after format expansion, so the path (already restricted to a safe character set by the
 * config) is single-quoted for sh and `#` is doubled for tmux.
 */
export function pipeCommand(path: string): string {
  if (/['\n\r%]/.test(path)) throw new RangeError(`unsafe log path: ${path}`);
  return escapeFormat(`exec cat >> '${path}'`);
}

export async function ensureLogDir(stateDir: string): Promise<string> {
  const dir = logDir(stateDir);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
