/**
 * The marks an integrated shell prints, as terminals' shell integration does (OSC 133): OSC
 * sequences `ESC ] 6973 ; NONCE ; KIND [; FIELDS] BEL`, which a terminal does not display.
 *
 * - `S;SEQ` a command starts (printed after the typed line was read, before it runs);
 * - `E;SEQ;STATUS` a command ended with STATUS (printed before anything else of the next prompt);
 * - `P;PID` the prompt is drawn and the line editor reads input (the end of the prompt);
 * - `C` a continuation prompt: the typed text is incomplete (an open quote, a missing `fi`);
 * - `N` printed once at start-up by a shell that cannot print the others (bash before 4.4, sh that
 *   is not dash): commands typed there use the wrapper line.
 *
 * SEQ counts the shell's commands (`-` where the shell has no pre-command hook: sh, dash), so an
 * end mark that a command prints as output (`cat` of an old log) cannot end a later command; the
 * NONCE is random per pane and never in the environment of the pane's programs.
 */
export const MARK_OSC = "6973";

export type MarkKind = "S" | "E" | "P" | "C" | "N";

export interface Mark {
  kind: MarkKind;
  /** The shell's command counter (S, E); null where the shell keeps none. */
  seq: number | null;
  /** E: the exit status. */
  status: number | null;
  /** P: the shell's pid. */
  pid: number | null;
  /** Stream offset of the mark's first byte (ESC). */
  offset: number;
  /** Stream offset just after its BEL. */
  end: number;
}

const latin1 = new TextDecoder("latin1");
const MAX_FIELDS = 40;

/** A fresh random nonce: 16 hex digits (never `x`, so it cannot be a fallback wrapper's id). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function parseFields(kind: string, fields: string[]): Pick<Mark, "seq" | "status" | "pid"> | null {
  const int = (s: string | undefined) => (s !== undefined && /^\d{1,10}$/.test(s) ? Number(s) : null);
  const seq = (s: string | undefined) => (s === "-" ? null : int(s));
  if (kind === "S" && fields.length === 1 && (fields[0] === "-" || int(fields[0]) !== null)) {
    return { seq: seq(fields[0]), status: null, pid: null };
  }
  if (
    kind === "E" && fields.length === 2 && int(fields[1]) !== null && (fields[0] === "-" || int(fields[0]) !== null)
  ) {
    return { seq: seq(fields[0]), status: int(fields[1]), pid: null };
  }
  if (kind === "P" && fields.length === 1 && int(fields[0]) !== null) {
    return { seq: null, status: null, pid: int(fields[0]) };
  }
  if ((kind === "C" || kind === "N") && fields.length === 0) return { seq: null, status: null, pid: null };
  return null;
}

/**
 * Finds one pane's marks in its byte stream, which arrives in arbitrary chunks (a mark split
 * across two reads is found once whole). latin1 keeps one character per byte, so string indexes
 * are byte offsets.
 */
export class MarkReader {
  readonly #prefix: string;
  #carry = "";
  /** The last complete mark seen so far. */
  last: Mark | null = null;

  constructor(nonce: string) {
    this.#prefix = `\x1b]${MARK_OSC};${nonce};`;
  }

  /** Feeds bytes at stream offset `offset`; returns the complete marks they finish, in order. */
  push(bytes: Uint8Array, offset: number): Mark[] {
    const text = this.#carry + latin1.decode(bytes);
    const base = offset - this.#carry.length;
    const marks: Mark[] = [];
    let from = 0;
    let pending = -1;
    for (;;) {
      const at = text.indexOf(this.#prefix, from);
      if (at < 0) break;
      const body = at + this.#prefix.length;
      const bel = text.indexOf("\x07", body);
      if (bel < 0) {
        if (text.length - body <= MAX_FIELDS) pending = at; // the rest comes with the next chunk
        break;
      }
      if (bel - body > MAX_FIELDS) {
        from = body;
        continue;
      }
      const [kind, ...fields] = text.slice(body, bel).split(";");
      const parsed = parseFields(kind, fields);
      if (parsed) marks.push({ kind: kind as MarkKind, ...parsed, offset: base + at, end: base + bel + 1 });
      from = bel + 1;
    }
    this.last = marks.at(-1) ?? this.last;
    // Keep an unfinished mark, or the bytes that could begin one.
    const keep = pending >= 0 ? pending : Math.max(from, text.length - (this.#prefix.length - 1));
    this.#carry = text.slice(keep);
    return marks;
  }
}

/** The last mark of `nonce` in `bytes` (a log's tail starting at stream offset `offset`), or null. */
export function lastMark(bytes: Uint8Array, offset: number, nonce: string): Mark | null {
  return new MarkReader(nonce).push(bytes, offset).at(-1) ?? null;
}
