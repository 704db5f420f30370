/**
 * Splits a byte stream into newline-terminated messages without ever holding more than `maxBytes`
 * of one: a longer line is skipped to its end and reported by size, with its first and last
 * bytes kept so the request id can still be found.
 */
export type Framed =
  | { kind: "line"; text: string }
  | { kind: "oversize"; bytes: number; head: string; tail: string };

const EDGE = 512;
const NEWLINE = 0x0a;

export class LineFramer {
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Skipping an oversize line: its size so far, first bytes and last bytes. */
  #skip: { bytes: number; head: Uint8Array; tail: Uint8Array } | null = null;
  readonly #decoder = new TextDecoder();

  constructor(readonly maxBytes: number) {}

  push(chunk: Uint8Array): Framed[] {
    const out: Framed[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      this.#add(piece);
      if (nl === -1) break;
      out.push(this.#finish());
      start = nl + 1;
    }
    return out;
  }

  #add(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#skip === null && this.#size + piece.length <= this.maxBytes) {
      this.#parts.push(piece.slice()); // the stream may reuse its buffer
      this.#size += piece.length;
      return;
    }
    if (this.#skip === null) {
      const held = concat(this.#parts);
      this.#skip = { bytes: this.#size, head: held.slice(0, EDGE), tail: held.slice(-EDGE) };
      this.#parts = [];
      this.#size = 0;
    }
    const skip = this.#skip;
    if (skip.head.length < EDGE) skip.head = concat([skip.head, piece.subarray(0, EDGE - skip.head.length)]);
    skip.tail = concat([skip.tail, piece.subarray(-EDGE)]).slice(-EDGE);
    skip.bytes += piece.length;
  }

  #finish(): Framed {
    if (this.#skip !== null) {
      const { bytes, head, tail } = this.#skip;
      this.#skip = null;
      return { kind: "oversize", bytes, head: this.#decoder.decode(head), tail: this.#decoder.decode(tail) };
    }
    const text = this.#decoder.decode(concat(this.#parts));
    this.#parts = [];
    this.#size = 0;
    return { kind: "line", text: text.endsWith("\r") ? text.slice(0, -1) : text };
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The id of a request whose line was too long to parse, from its first or last bytes: JSON-RPC
 * clients put `"id"` first (after `"jsonrpc"`) or last. A nested `"id"` cannot match: the head
 * pattern needs the object's first keys, the tail pattern the line's final brace.
 */
export function findRequestId(head: string, tail: string): string | number | null {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  const last = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const raw = first?.[1] ?? last?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
