import type { TmuxServer } from "../../tmux/server.ts";
import { REMOVED_OPTION } from "../panes/mod.ts";

const REMEMBERED = 64;
/** Server option where tmuxwright servers note what their calls removed: ` ID=TOOL:PID-TAG` entries. */
const OPTION = REMOVED_OPTION;
const KEEP_CHARS = 4_000;

/**
 * Who removed a pane, for PANE_GONE: kill_pane, kill_window and kill_session note their target
 * here before they kill it, and in the tmux server's `@tmuxwright_removed`, where the other
 * tmuxwright servers on that tmux server read it. What no note names was removed outside.
 */
export class Removals {
  readonly #ours = new Map<string, string>();
  #notes = 0;
  readonly #self = `${Deno.pid}-${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}`;

  constructor(private readonly tmux: TmuxServer) {}

  async removing(ids: readonly string[], tool: string): Promise<void> {
    for (const id of ids) {
      this.#ours.delete(id);
      this.#ours.set(id, tool);
    }
    for (const id of this.#ours.keys()) {
      if (this.#ours.size <= REMEMBERED) break;
      this.#ours.delete(id);
    }
    const entries = ids.map((id) => ` ${id}=${tool}:${this.#self}`).join("");
    await this.tmux.run("set-option", "-s", "-a", OPTION, entries).catch(() => {});
    // Kept short even when nobody reads it: every so often the option is trimmed to its newest notes.
    if (++this.#notes % 50 === 0) await this.#notesTrimmed();
  }

  /** Who removed the pane, its window or its session (`ids`), as the end of a sentence. */
  async who(ids: string[]): Promise<string> {
    const ours = ids.map((id) => this.#ours.get(id)).find(Boolean);
    if (ours) return `a ${ours} call of this server removed it`;
    const theirs = this.tmux.connected ? await this.#theirs(ids) : null;
    if (theirs) return `a ${theirs.tool} call of another tmuxwright server (process ${theirs.pid}) removed it`;
    return "it was closed outside tmuxwright (killed, or its program exited)";
  }

  /** The notes, trimmed to the newest ones when they grew past KEEP_CHARS. */
  async #notesTrimmed(): Promise<string> {
    const [notes = ""] = await this.tmux.run("show-options", "-sv", OPTION).catch(() => [""]);
    if (notes.length > KEEP_CHARS) {
      const kept = notes.split(" ").slice(-20).map((entry) => ` ${entry}`).join("");
      await this.tmux.run("set-option", "-s", OPTION, kept).catch(() => {});
    }
    return notes;
  }

  async #theirs(ids: string[]): Promise<{ tool: string; pid: string } | null> {
    const notes = await this.#notesTrimmed();
    for (const entry of notes.split(" ").reverse()) {
      const match = /^([%@$]\d+)=(\w+):(\d+)-\w+$/.exec(entry);
      if (match && ids.includes(match[1]) && !entry.endsWith(`:${this.#self}`)) {
        return { tool: match[2], pid: match[3] };
      }
    }
    return null;
  }
}
