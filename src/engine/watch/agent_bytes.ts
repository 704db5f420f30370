import type { AgentActivity, AgentCli } from "../agents/mod.ts";

/** OSC 0 and OSC 2 (the window title), ended by BEL or ST. */
// deno-lint-ignore no-control-regex
const TITLE = /\x1b\][02];([^\x07\x1b]*)(?:\x07|\x1b\\)/g;
/** Synchronized output (mode 2026): a frame begins, a frame ends. */
const FRAME_BEGIN = "\x1b[?2026h";
const FRAME_END = "\x1b[?2026l";
/** A frame not ended within this long is taken as ended (a CLI that never closes one must not hide its screen). */
const FRAME_MS = 200;
/** An unfinished escape sequence is kept for the next chunk, up to this many characters. */
const CARRY = 1024;

/**
 * What an agent CLI's output says as it writes it: every title it sets, in order (a state it held
 * between two looks at its pane, a turn that worked for 40 ms, is not missed), and whether it is
 * in the middle of a frame (synchronized output: Codex and Claude Code draw each frame between
 * `CSI ? 2026 h` and `l`; tmux 3.3a shows a frame half drawn, so nothing is read from the screen then).
 */
export class AgentBytes {
  readonly #decoder = new TextDecoder();
  #carry = "";
  #frameSince: number | null = null;

  /** What the titles in `bytes` said, in order. */
  push(bytes: Uint8Array, cli: AgentCli): AgentActivity[] {
    const text = this.#carry + this.#decoder.decode(bytes, { stream: true });
    const said: AgentActivity[] = [];
    let end = 0;
    for (const match of text.matchAll(TITLE)) {
      const activity = cli.titleSays(match[1]);
      if (activity !== null) said.push(activity);
      end = match.index + match[0].length;
    }
    const begin = text.lastIndexOf(FRAME_BEGIN);
    const close = text.lastIndexOf(FRAME_END);
    if (begin > close) this.#frameSince ??= performance.now();
    else if (close >= 0) this.#frameSince = null;
    const open = text.lastIndexOf("\x1b");
    const unfinished = open >= Math.max(end, close + FRAME_END.length, begin + FRAME_BEGIN.length);
    this.#carry = unfinished && text.length - open <= CARRY ? text.slice(open) : "";
    return said;
  }

  /** A frame is being drawn: the screen is not to be read now (its end brings more output). */
  get inFrame(): boolean {
    return this.#frameSince !== null && performance.now() - this.#frameSince < FRAME_MS;
  }
}
