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
  /** The open reply block: its guard, and its content so far as raw byte runs (lines joined by \n). */
  #block: { guard: string; flags: string; parts: Uint8Array[] } | null = null;

  constructor(private readonly events: ControlParserEvents) {}

  /** Feeds raw bytes from tmux's stdout; complete lines are parsed at once. */
  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.#pending.length > 0) {
      // Only the line begun in an earlier chunk is joined; the rest is parsed where it lies (a
      // flood of %output would otherwise copy every chunk once more).
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        this.#pending = concat(this.#pending, chunk);
        return;
      }
      const first = concat(this.#pending, chunk.subarray(0, nl + 1));
      this.#pending = new Uint8Array(0);
      this.#parse(first);
      data = chunk.subarray(nl + 1);
    }
    this.#parse(data);
  }

  #parse(data: Uint8Array): void {
    // Block content is kept as runs of raw bytes and decoded once when the block ends: a 10,000
    // line capture would otherwise cost 10,000 decodes. Only lines starting with "%" can end a
    // block, so the search jumps from one "%" to the next instead of looking at every line.
    let start = 0;
    while (start < data.length) {
      const block = this.#block;
      if (block) {
        const close = this.#findEnd(block, data, start);
        if (close === null) {
          const last = data.lastIndexOf(0x0a);
          if (last >= start) block.parts.push(data.subarray(start, last)); // chunks are never reused
          start = last >= start ? last + 1 : start;
          break;
        }
        if (close.line > start) block.parts.push(data.subarray(start, close.line - 1));
        this.#block = null;
        if (block.flags === "1") this.events.reply({ ok: close.ok, lines: joinLines(block.parts) });
        start = close.next;
        continue;
      }
      const nl = data.indexOf(0x0a, start);
      if (nl === -1) break;
      this.#line(data.subarray(start, nl));
      start = nl + 1;
    }
    if (start < data.length) this.#pending = data.slice(start);
  }

  /** The complete line at or after `from` that ends `block` (its start, the next line's start, %end or %error). */
  #findEnd(
    block: { guard: string },
    data: Uint8Array,
    from: number,
  ): { line: number; next: number; ok: boolean } | null {
    for (let at = from;;) {
      const pct = data.indexOf(0x25, at);
      if (pct === -1) return null;
      if (pct !== from && data[pct - 1] !== 0x0a) {
        at = pct + 1;
        continue;
      }
      const nl = data.indexOf(0x0a, pct);
      if (nl === -1) return null; // not complete yet: it stays pending
      const end = this.#blockEnd(block, data.subarray(pct, nl));
      if (end !== null) return { line: pct, next: nl + 1, ok: end };
      at = nl + 1;
    }
  }

  /** true for the block's `%end`, false for its `%error`, null for any other line. */
  #blockEnd(block: { guard: string }, bytes: Uint8Array): boolean | null {
    const text = decoder.decode(bytes);
    if (text === `%end ${block.guard}`) return true;
    if (text === `%error ${block.guard}`) return false;
    return null;
  }

  #line(bytes: Uint8Array): void {
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
      this.#block = { guard: `${begin[1]} ${begin[2]} ${begin[3]}`, flags: begin[3], parts: [] };
      return;
    }
    if (text.startsWith("%")) {
      const space = text.indexOf(" ");
      this.events.notification(space === -1 ? text : text.slice(0, space), space === -1 ? "" : text.slice(space + 1));
    }
  }
}

const OUTPUT_PREFIX = new TextEncoder().encode("%output ");

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Decodes a block's byte runs into lines. Each run is whole lines (without its final newline), so
 * each is decoded alone: no copy of the whole block (a search's captures are ~10 MB).
 */
function joinLines(parts: readonly Uint8Array[]): string[] {
  if (parts.length === 1) return decoder.decode(parts[0]).split("\n");
  const lines: string[] = [];
  for (const part of parts) for (const line of decoder.decode(part).split("\n")) lines.push(line);
  return lines;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** `%output` escapes bytes below 0x20 and the backslash as `\ooo`; everything else is raw. */
export function unescapeOutput(value: Uint8Array): Uint8Array {
  let at = value.indexOf(0x5c);
  if (at === -1) return value.slice();
  const out = new Uint8Array(value.length);
  out.set(value.subarray(0, at));
  let n = at;
  // One tight loop from the first backslash on (a flood of short lines has two escapes per line).
  for (const end = value.length; at < end; at++) {
    const b = value[at];
    if (b === 0x5c && at + 3 < end) {
      const d1 = value[at + 1] - 48, d2 = value[at + 2] - 48, d3 = value[at + 3] - 48;
      if ((d1 | d2 | d3) >= 0 && d1 < 8 && d2 < 8 && d3 < 8) {
        out[n++] = (d1 << 6) | (d2 << 3) | d3;
        at += 3;
        continue;
      }
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}
