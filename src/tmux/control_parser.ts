/**
 * Parser for the tmux control-mode stream (tmux 3.2+): reply blocks and notifications.
 *
 * Block content is not escaped by tmux, so a line inside a block is never read as a
 * notification, and a block ends only on `%end`/`%error` carrying the same time, number and
 * flags as its `%begin`. Only flags=1 blocks answer commands this client wrote.
 */
export interface Reply {
  ok: boolean;
  lines: string[];
}

export interface ControlParserEvents {
  /** A reply to a command written on this connection (flags=1), in order. */
  reply(reply: Reply): void;
  /** A notification line such as `%window-close @3`; `%output` arrives through `output`. */
  notification(name: string, args: string): void;
  /** `%output %N ...`: the bytes the pane wrote, unescaped. */
  output(paneId: string, bytes: Uint8Array): void;
}

const BEGIN = /^%begin (\d+) (\d+) (\d+)$/;
const decoder = new TextDecoder();

export class ControlParser {
  #pending: Uint8Array = new Uint8Array(0);
  #block: { guard: string; flags: string; lines: string[] } | null = null;

  constructor(private readonly events: ControlParserEvents) {}

  /** Feeds raw bytes from tmux's stdout; complete lines are parsed at once. */
  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.#pending.length > 0) {
      data = new Uint8Array(this.#pending.length + chunk.length);
      data.set(this.#pending);
      data.set(chunk, this.#pending.length);
    }
    let start = 0;
    for (let i = data.indexOf(0x0a); i !== -1; i = data.indexOf(0x0a, start)) {
      this.#line(data.subarray(start, i));
      start = i + 1;
    }
    this.#pending = data.slice(start);
  }

  #line(bytes: Uint8Array): void {
    if (this.#block) {
      const text = decoder.decode(bytes);
      if (text === `%end ${this.#block.guard}` || text === `%error ${this.#block.guard}`) {
        const block = this.#block;
        this.#block = null;
        if (block.flags === "1") this.events.reply({ ok: text.startsWith("%end"), lines: block.lines });
      } else {
        this.#block.lines.push(text);
      }
      return;
    }
    if (startsWith(bytes, OUTPUT_PREFIX)) {
      const rest = bytes.subarray(OUTPUT_PREFIX.length);
      const space = rest.indexOf(0x20);
      if (space > 0) {
        this.events.output(decoder.decode(rest.subarray(0, space)), unescapeOutput(rest.subarray(space + 1)));
      }
      return;
    }
    const text = decoder.decode(bytes);
    const begin = BEGIN.exec(text);
    if (begin) {
      this.#block = { guard: `${begin[1]} ${begin[2]} ${begin[3]}`, flags: begin[3], lines: [] };
      return;
    }
    if (text.startsWith("%")) {
      const space = text.indexOf(" ");
      this.events.notification(space === -1 ? text : text.slice(0, space), space === -1 ? "" : text.slice(space + 1));
    }
  }
}

const OUTPUT_PREFIX = new TextEncoder().encode("%output ");

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** `%output` escapes bytes below 0x20 and the backslash as `\ooo`; everything else is raw. */
export function unescapeOutput(value: Uint8Array): Uint8Array {
  if (value.indexOf(0x5c) === -1) return value.slice();
  const out = new Uint8Array(value.length);
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const b = value[i];
    if (b === 0x5c && i + 3 < value.length && isOctal(value[i + 1]) && isOctal(value[i + 2]) && isOctal(value[i + 3])) {
      out[n++] = ((value[i + 1] - 48) << 6) | ((value[i + 2] - 48) << 3) | (value[i + 3] - 48);
      i += 3;
    } else {
      out[n++] = b;
    }
  }
  return out.slice(0, n);
}

function isOctal(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x37;
}
