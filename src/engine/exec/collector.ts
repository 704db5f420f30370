import { concatBytes, renderTerminalText } from "../output/mod.ts";

/** Raw bytes kept per call while it runs: the tail is kept, older bytes are dropped and counted. */
export const RAW_CAP_BYTES = 8 * 1024 * 1024;
/** Rendered characters returned; a longer output keeps its last lines. */
export const MAX_OUTPUT_CHARS = 800_000;

/** Collects a call's output bytes by stream offset, bounded, and renders a range to text. */
export class OutputCollector {
  #chunks: { offset: number; bytes: Uint8Array }[] = [];
  #size = 0;
  /** First stream offset still held. */
  #from = 0;

  constructor(private readonly capBytes = RAW_CAP_BYTES) {}

  push(bytes: Uint8Array, offset: number): void {
    this.#chunks.push({ offset, bytes });
    this.#size += bytes.length;
    while (this.#size - this.#chunks[0].bytes.length > this.capBytes) {
      const dropped = this.#chunks.shift()!;
      this.#size -= dropped.bytes.length;
      this.#from = this.#chunks[0].offset;
    }
  }

  /** Only bytes from `from` on are needed (before the start marker nothing is kept). */
  discardBefore(from: number): void {
    while (this.#chunks.length > 0 && this.#chunks[0].offset + this.#chunks[0].bytes.length <= from) {
      const dropped = this.#chunks.shift()!;
      this.#size -= dropped.bytes.length;
    }
    this.#from = Math.max(this.#from, from);
  }

  /** Renders bytes in [start, end) to plain text; `truncated` when bytes were dropped or text cut. */
  text(start: number, end: number, maxChars = MAX_OUTPUT_CHARS): { text: string; truncated: boolean } {
    let truncated = start < this.#from;
    let raw = new TextDecoder().decode(this.slice(start, end));
    if (truncated) raw = raw.slice(raw.indexOf("\n") + 1); // start on a whole line
    let text = renderTerminalText(raw);
    if (text.length > maxChars) {
      truncated = true;
      const cut = text.length - maxChars;
      const nl = text.indexOf("\n", cut);
      text = text.slice(nl >= 0 ? nl + 1 : cut);
    }
    return { text, truncated };
  }

  /** The held bytes in [start, end). */
  slice(start: number, end: number): Uint8Array {
    const from = Math.max(start, this.#from);
    const parts: Uint8Array[] = [];
    for (const { offset, bytes } of this.#chunks) {
      const a = Math.max(from, offset) - offset;
      const b = Math.min(end, offset + bytes.length) - offset;
      if (b > a) parts.push(bytes.subarray(a, b));
    }
    return concatBytes(parts);
  }
}
