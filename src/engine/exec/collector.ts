import {
  type Budget,
  concatBytes,
  fitLines,
  type Fitted,
  type Omitted,
  type OutputLine,
  rawLines,
  renderTerminalText,
} from "../output/mod.ts";

/** Raw bytes kept per call while it runs; beyond it, bytes are dropped from the middle. */
export const RAW_CAP_BYTES = 8 * 1024 * 1024;
/** The first bytes of a command's output are never dropped (its head stays returnable). */
const HEAD_KEEP = 1024 * 1024;

/**
 * Collects a call's output bytes by stream offset, bounded: past the cap, the bytes just after
 * the head are dropped (the head and the newest bytes stay), and the newlines dropped are counted
 * so the total number of lines stays exact. Renders a range within an output budget.
 */
export class OutputCollector {
  #chunks: { offset: number; bytes: Uint8Array }[] = [];
  #size = 0;
  /** First stream offset still of interest. */
  #from = 0;
  /** Bytes dropped from the middle: [from, to), and the newlines among them. */
  #gap: { from: number; to: number; newlines: number } | null = null;

  constructor(private readonly capBytes = RAW_CAP_BYTES) {}

  push(bytes: Uint8Array, offset: number): void {
    if (this.#chunks.length === 0 && this.#size === 0 && this.#from === 0) this.#from = offset;
    this.#chunks.push({ offset, bytes });
    this.#size += bytes.length;
    while (this.#size > this.capBytes && this.#chunks.length > 1) this.#dropOne();
  }

  /** Only bytes from `from` on are needed (before the start marker nothing is kept). */
  discardBefore(from: number): void {
    while (this.#chunks.length > 0 && this.#chunks[0].offset + this.#chunks[0].bytes.length <= from) {
      this.#size -= this.#chunks.shift()!.bytes.length;
    }
    this.#from = Math.max(this.#from, from);
    if (this.#gap && this.#gap.to <= this.#from) this.#gap = null;
  }

  /** The held bytes in [start, end) (bytes dropped from the middle are not there). */
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

  /**
   * The output in [start, end), rendered and fitted into `budget`: head and tail kept, `marker`
   * in place of the middle. Only the ends are rendered when the output is far larger than the
   * budget; the number of lines is exact even when bytes were dropped.
   */
  fit(start: number, end: number, budget: Budget, marker: (omitted: Omitted) => string): Fitted {
    const window = 2 * budget.bytes + 16 * 1024;
    const gap = this.#gap && this.#gap.from < end && this.#gap.to > start ? this.#gap : null;
    if (!gap && end - start <= 2 * window) {
      const fitted = fitLines(rawLines(this.slice(start, end), start, renderTerminalText), budget, marker);
      return { ...fitted, totalBytes: end - start }; // the raw bytes, as the omitted range counts them
    }
    // Only the two ends are rendered; everything between counts as one gap.
    const headEnd = Math.min(gap?.from ?? end, start + window);
    const tailStart = Math.max(gap?.to ?? start, end - window, headEnd);
    const head = rawLines(this.slice(start, headEnd), start, renderTerminalText);
    if (head.length > 0 && !this.#endsLine(head.at(-1)!)) head.pop(); // cut by the gap: left out
    const tail = rawLines(this.slice(tailStart, end), tailStart, renderTerminalText);
    if (tail.length > 0 && !this.#startsLine(tailStart)) tail.shift();
    const lines: OutputLine[] = [...head, ...tail];
    const newlines = this.#newlines(start, end);
    const unterminated = end > start && this.slice(end - 1, end)[0] !== 0x0a ? 1 : 0;
    const totals = { lines: newlines + unterminated, bytes: end - start, gapAfter: head.length - 1 };
    return fitLines(lines, budget, marker, totals);
  }

  /** Whether bytes in [start, end) were dropped from the middle (the cap was reached). */
  dropped(start: number, end: number): boolean {
    return this.#gap !== null && this.#gap.from < end && this.#gap.to > start;
  }

  /** Whether `line` ends with its newline (it is whole). */
  #endsLine(line: OutputLine): boolean {
    return line.to !== undefined && this.slice(line.to - 1, line.to)[0] === 0x0a;
  }

  /** Whether `offset` starts a line: the byte before it is held and is a newline. */
  #startsLine(offset: number): boolean {
    const before = this.slice(offset - 1, offset);
    return before.length === 1 && before[0] === 0x0a;
  }

  #newlines(start: number, end: number): number {
    let count = this.#gap && this.#gap.from >= start && this.#gap.to <= end ? this.#gap.newlines : 0;
    const bytes = this.slice(start, end);
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) count++;
    return count;
  }

  /** Drops the first chunk after the head (or the oldest, before the output has a head). */
  #dropOne(): void {
    const boundary = this.#from + Math.min(HEAD_KEEP, this.capBytes / 8);
    let index = this.#chunks.findIndex((c) => c.offset >= boundary);
    if (index < 0 || index === this.#chunks.length - 1) index = 0;
    const [dropped] = this.#chunks.splice(index, 1);
    this.#size -= dropped.bytes.length;
    if (index === 0) {
      this.#from = this.#chunks[0].offset;
      return;
    }
    let newlines = 0;
    for (let i = dropped.bytes.indexOf(0x0a); i >= 0; i = dropped.bytes.indexOf(0x0a, i + 1)) newlines++;
    const to = dropped.offset + dropped.bytes.length;
    this.#gap = this.#gap
      ? { from: this.#gap.from, to, newlines: this.#gap.newlines + newlines }
      : { from: dropped.offset, to, newlines };
  }
}
