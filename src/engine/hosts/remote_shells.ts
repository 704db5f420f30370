import type { TmuxServer } from "../../tmux/server.ts";
import { BASH_RC, FISH_INIT, type Launch, shellLaunch, ZSH_FILES } from "../integration/mod.ts";

/** A host's shell and the directory of its start-up files, as learned on one connection. */
interface HostShell {
  connection: number;
  dir: string;
  shell: string | null;
}

/** A path that may go into an argv and a fish `source '…'` as it is. */
const PLAIN_PATH = /^\/[A-Za-z0-9_.\/+-]{1,200}$/;

/**
 * The shell integration on a remote host: the start-up files of bash, zsh and fish (as locally,
 * see src/engine/integration/README.md) are written there by the host's tmux server itself
 * (`set-buffer` + `save-buffer`, no process but one `mkdir`) into `tmuxwright-<tag>/` in its
 * private socket directory, in ONE pipelined batch per connection that also asks for the host's
 * shell (tmux's global `SHELL`). Removed at shutdown (`remove`). dash and other shells start as
 * they are and get the wrapper line.
 */
export class RemoteShells {
  readonly #tag = [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, "0")).join("");
  #learned: Promise<HostShell> | null = null;
  #dir: string | null = null;

  constructor(private readonly link: TmuxServer) {}

  /** How to start the host's user shell with its marks, or null (no integration for it, or the files failed). */
  async launch(login: boolean): Promise<Launch | null> {
    const host = await this.#current();
    if (host.shell === null) return null;
    return shellLaunch(host.shell, login, host.dir, ["bash", "zsh", "fish"]);
  }

  /** Removes the start-up files (at shutdown, while the link is up). */
  async remove(): Promise<void> {
    if (this.#dir === null || !this.link.connected) return;
    await this.link.runShell(`rm -rf '${this.#dir}'`).catch(() => {});
  }

  /** Set up once per connection: a reconnect may reach a tmux server that restarted (its directory emptied). */
  async #current(): Promise<HostShell> {
    await this.link.connect();
    const connection = this.link.connections;
    const known = await this.#learned?.catch(() => null);
    if (known?.connection === connection) return known;
    this.#learned = this.#setUp(connection);
    return await this.#learned;
  }

  async #setUp(connection: number): Promise<HostShell> {
    const dir = `#{d:socket_path}/tmuxwright-${this.#tag}`;
    const files: [string, string][] = [
      ["bashrc", BASH_RC],
      ["init.fish", FISH_INIT],
      ...Object.entries(ZSH_FILES).map(([name, text]): [string, string] => [`zsh/${name}`, text]),
    ];
    const buffer = `tmuxwright-rc-${this.#tag}`;
    const commands: string[][] = [
      ["display-message", "-p", "#{socket_path}"],
      ["show-environment", "-g", "SHELL"],
      // run-shell holds this client's queue until mkdir is done: the files below land in the directory.
      ["run-shell", `umask 077; mkdir -p "${dir}/zsh"`],
      ...files.flatMap(([name, text]) => [
        ["set-buffer", "-b", buffer, "--", text],
        ["save-buffer", "-b", buffer, `/${dir}/${name}`],
      ]),
      ["delete-buffer", "-b", buffer],
    ];
    const replies = await Promise.allSettled(await this.link.pipeline(commands));
    const value = (i: number) => replies[i].status === "fulfilled" ? replies[i].value : null;
    const socket = value(0)?.[0] ?? "";
    const base = socket.replace(/\/[^/]*$/, "");
    const written = replies.slice(2).every((r) => r.status === "fulfilled") && PLAIN_PATH.test(base);
    const shell = /^SHELL=(.*)$/.exec(value(1)?.[0] ?? "")?.[1] ?? null;
    const hostDir = `${base}/tmuxwright-${this.#tag}`;
    if (written) this.#dir = hostDir;
    return {
      connection,
      dir: hostDir,
      shell: written && shell !== null && PLAIN_PATH.test(shell) ? shell : null,
    };
  }
}
