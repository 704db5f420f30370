import { dirname, join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { escapeFormat } from "../../tmux/quote.ts";

const SAFE_DIR = /^\/[A-Za-z0-9_\/.+@:, -]*$/;

/**
 * Socket files of tmux servers this user can reach: tmux's own directory
 * (`${TMUX_TMPDIR:-/tmp}/tmux-UID`, where `-L NAME` sockets live) and the directory of the
 * connected server's socket. The sandbox gives Deno no read access there, so tmux runs a fixed sh
 * loop (only a validated directory is substituted) that writes the list into the state directory.
 */
export async function listSocketPaths(
  tmux: TmuxServer,
  stateDir: string,
  ownSocket: string | null,
): Promise<string[]> {
  // The connected server's directory first: with more sockets than are probed, its neighbours stay listed.
  const extra = ownSocket && SAFE_DIR.test(dirname(ownSocket)) ? `'${dirname(ownSocket)}' ` : "";
  const file = join(stateDir, `sockets-${Deno.pid}-${crypto.randomUUID()}.txt`);
  if (/['\n%]/.test(file)) throw new RangeError(`unsafe path ${file}`);
  const script = `for d in ${extra}"\${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"; do for f in "$d"/*; do ` +
    `if [ -S "$f" ]; then printf '%s\\n' "$f"; fi; done; done > '${file}' 2>/dev/null; exit 0`;
  try {
    await tmux.oneShot("run-shell", escapeFormat(script));
    const listed = (await Deno.readTextFile(file)).split("\n").filter((p) => p.startsWith("/"));
    return [...new Set([...(ownSocket ? [ownSocket] : []), ...listed])];
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
