import { dirname, join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import { classifyTmuxError, TmuxError } from "../../tmux/errors.ts";

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
    await listingRun(tmux, escapeFormat(script));
    const listed = (await Deno.readTextFile(file)).split("\n").filter((p) => p.startsWith("/"));
    return [...new Set([...(ownSocket ? [ownSocket] : []), ...listed])];
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

/** A hung tmux client (tmux 3.3a, now and then) gets one more try: the listing only overwrites its file. */
const LISTING_LIMIT_MS = 5_000;

async function listingRun(tmux: TmuxServer, script: string): Promise<void> {
  if (tmux.remote) return void await tmux.oneShot("run-shell", script);
  const args = [...tmux.socketArgs, "run-shell", script];
  for (let attempt = 0;; attempt++) {
    try {
      const out = await tmuxOneShot(args, undefined, LISTING_LIMIT_MS);
      if (out.code !== 0) throw classifyTmuxError(out.stderr || out.stdout, "run-shell");
      return;
    } catch (error) {
      if (attempt > 0 || !(error instanceof TmuxError && error.kind === "disconnected")) throw error;
    }
  }
}
