import type { TmuxServer } from "../../tmux/server.ts";
import { pasteBufferIfAlive } from "../../tmux/guarded_paste.ts";
import { ToolError } from "../errors.ts";

/** Buffers one server may hold at a time; a person's clipboard history is not ours to fill. */
const MAX_BUFFERS = 100;
const MAX_SHOWN_CHARS = 200_000;

/**
 * Paste buffers namespaced to this server: every name is generated here (`tmuxwright-<pid>-<random>`)
 * and remembered, and only remembered names are shown, pasted or deleted. A buffer a person made
 * (any name, even one shaped like ours) is never touched, and no tool lists buffers: tmux buffers
 * hold people's copy history. The buffers are deleted when the server exits.
 */
export class BufferRegistry {
  readonly #names = new Set<string>();

  constructor(private readonly tmux: TmuxServer, private readonly ownerPid: number) {}

  async load(text: string): Promise<{ buffer: string; bytes: number }> {
    if (this.#names.size >= MAX_BUFFERS) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot load a buffer: this server already holds ${MAX_BUFFERS}`,
        "Delete buffers you no longer need with delete_buffer.",
      );
    }
    const random = crypto.getRandomValues(new Uint8Array(6));
    const buffer = `tmuxwright-${this.ownerPid}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    await this.tmux.run("set-buffer", "-b", buffer, "--", text);
    this.#names.add(buffer);
    return { buffer, bytes: new TextEncoder().encode(text).length };
  }

  async show(buffer: string): Promise<{ content: string; truncated: boolean }> {
    await this.#assertExists(buffer);
    // A control client gets buffer contents vis(3)-escaped (`$` as `\$`); a plain client gets the bytes.
    const content = await this.tmux.oneShot("show-buffer", "-b", buffer);
    const truncated = content.length > MAX_SHOWN_CHARS;
    return { content: truncated ? content.slice(0, MAX_SHOWN_CHARS) : content, truncated };
  }

  /** Pastes into a live pane (never a dead one: that crashes tmux 3.3a); the buffer is kept for more pastes. */
  async paste(buffer: string, paneId: string, bracketed: boolean): Promise<boolean> {
    await this.#assertExists(buffer);
    return await pasteBufferIfAlive(this.tmux, buffer, paneId, bracketed, { keep: true });
  }

  async delete(buffer: string): Promise<void> {
    await this.#assertExists(buffer);
    await this.tmux.run("delete-buffer", "-b", buffer);
    this.#names.delete(buffer);
  }

  /** Deletes every buffer this server made; one tmux process, bounded by the caller's shutdown budget. */
  async close(): Promise<void> {
    const names = [...this.#names];
    this.#names.clear();
    if (names.length === 0) return;
    const commands = names.flatMap((name, i) => [...(i > 0 ? [";"] : []), "delete-buffer", "-b", name]);
    await this.tmux.oneShot(...commands).catch(() => {}); // a remote host's link runs them itself
  }

  async #assertExists(buffer: string): Promise<void> {
    if (!this.#names.has(buffer)) {
      throw new ToolError(
        "NOT_FOUND",
        `Buffer ${JSON.stringify(buffer)} was not created by this server`,
        "Use a buffer name that load_buffer returned; buffers of others are never read or changed.",
      );
    }
    const names = await this.tmux.run("list-buffers", "-F", "#{buffer_name}");
    if (!names.includes(buffer)) {
      this.#names.delete(buffer);
      throw new ToolError(
        "NOT_FOUND",
        `Buffer ${JSON.stringify(buffer)} no longer exists in tmux`,
        "Load the text again with load_buffer.",
      );
    }
  }
}
