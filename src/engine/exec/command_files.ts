import { dirname, join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { newMarkerId } from "./markers.ts";

/**
 * Where command files go: locally `STATE_DIR/exec` (mode 0700), one file per command; on a host,
 * its tmux server's socket directory (private to the user), one file per pane named for this
 * process, so they can be removed at shutdown.
 */
export class CommandFiles {
  #dirReady: Promise<string> | null = null;
  #remoteDirReady: Promise<string> | null = null;
  /** Names this process's command files on a remote host apart from other servers'. */
  readonly #remoteTag = newMarkerId(0).split("x").pop()!;

  constructor(private readonly tmux: TmuxServer, private readonly stateDir: string) {}

  /** The local file of command `id`. */
  async local(id: string): Promise<string> {
    return join(await this.#execDir(), `${id}.sh`);
  }

  /** The host's file for a pane's commands (rewritten for each: commands in a pane run one at a time). */
  async remote(paneId: string): Promise<string> {
    return `${await this.#remoteDir()}/tmuxwright-${this.#remoteTag}-${paneId.slice(1)}.sh`;
  }

  /** The host's tmux may have restarted elsewhere: its directory is asked again next time. */
  forgetRemoteDir(): void {
    this.#remoteDirReady = null;
  }

  /** Removes this process's command files on the host (at shutdown, while its link is up). */
  async removeRemote(): Promise<void> {
    if (!this.tmux.remote || this.#remoteDirReady === null) return;
    const dir = await this.#remoteDirReady.catch(() => null);
    if (dir !== null) await this.tmux.runShell(`rm -f '${dir}'/tmuxwright-${this.#remoteTag}-*.sh`).catch(() => {});
  }

  /** The host's tmux socket directory (mode 0700, the user's): where its command files go. */
  #remoteDir(): Promise<string> {
    this.#remoteDirReady ??= this.tmux.run("display-message", "-p", "#{socket_path}").then(([path]) => {
      const dir = dirname(path ?? "");
      if (!dir.startsWith("/") || /['\n\r]/.test(dir)) throw new Error(`unexpected tmux socket path ${path}`);
      return dir;
    });
    return this.#remoteDirReady.catch((error) => {
      this.#remoteDirReady = null;
      throw error;
    });
  }

  #execDir(): Promise<string> {
    this.#dirReady ??= (async () => {
      const dir = join(this.stateDir, "exec");
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      return dir;
    })();
    return this.#dirReady;
  }
}
