import type { AgentActivity, AgentCli } from "../agents/mod.ts";

/** OSC 0 and OSC 2 (the window title), ended by BEL or ST. */
// deno-lint-ignore no-control-regex
const TITLE = /\x1b\][02];([^\x07\x1b]*)(?:\x07|\x1b\\)/g;
/** An unfinished title sequence is kept for the next chunk, up to this many characters. */
const CARRY = 1024;

/**
 * The titles an agent CLI sets, read from its output as it writes them: every one, in order, so a
 * state it held between two looks at its pane (a turn that worked for 40 ms) is not missed.
 */
export class TitleScanner {
  readonly #decoder = new TextDecoder();
  #carry = "";

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
    const open = text.lastIndexOf("\x1b]");
    this.#carry = open >= end && text.length - open <= CARRY ? text.slice(open) : "";
    return said;
  }
}
