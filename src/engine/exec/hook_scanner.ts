import { type Mark, MarkReader } from "../integration/mod.ts";

/** What a call learns from the marks around its command: where output starts, where it ends. */
export interface CommandMarks {
  /** Stream offset just after the start of the command's output, once known. */
  readonly startEnd: number | null;
  /** Stream offset of the end mark's first byte, and the status it carried. */
  readonly end: { offset: number; status: number } | null;
  /** A continuation prompt came before the command started: the typed text is incomplete. */
  readonly incomplete: boolean;
  /** The shell the command was typed into ended (an `exit` in a shell started inside an integrated one). */
  readonly shellExited?: boolean;
  /** Feeds bytes at stream offset `offset`; true when something new was found. */
  push(bytes: Uint8Array, offset: number): boolean;
}

const latin1 = new TextDecoder("latin1");
/** Line editors switch bracketed paste off when they hand the accepted line to the shell. */
const PASTE_OFF = "\x1b[?2004l";

/**
 * Follows a command typed into an integrated shell (src/engine/integration/): output starts after
 * its S mark and ends at the next E mark whose command count is at least the S mark's (an end mark
 * inside the output, such as `cat` of an old log, cannot end it). An E mark without an S mark is a
 * line the shell did not run (a syntax error): its output starts where the line editor let go of
 * the line. A C mark before either means the text was incomplete.
 */
export class HookScanner implements CommandMarks {
  startEnd: number | null = null;
  end: { offset: number; status: number } | null = null;
  incomplete = false;
  readonly #marks: MarkReader;
  #seq: number | null = null;
  #lineDone: number | null = null;
  #carry = "";

  constructor(nonce: string) {
    this.#marks = new MarkReader(nonce);
  }

  /** The last mark read (with the end mark, its prompt's P mark may have come in the same bytes). */
  get lastMark(): Mark | null {
    return this.#marks.last;
  }

  push(bytes: Uint8Array, offset: number): boolean {
    if (this.end) return false;
    if (this.startEnd === null && this.#lineDone === null) this.#findLineDone(bytes, offset);
    let found = false;
    for (const mark of this.#marks.push(bytes, offset)) {
      if (mark.kind === "S" && this.startEnd === null) {
        this.startEnd = mark.end;
        this.#seq = mark.seq;
        found = true;
      } else if (mark.kind === "E" && this.startEnd === null) {
        this.startEnd = Math.min(this.#lineDone ?? mark.offset, mark.offset);
        this.end = { offset: mark.offset, status: mark.status ?? 0 };
        return true;
      } else if (mark.kind === "E" && (this.#seq === null || mark.seq === null || mark.seq >= this.#seq)) {
        this.end = { offset: mark.offset, status: mark.status ?? 0 };
        return true;
      } else if (mark.kind === "C" && this.startEnd === null && !this.incomplete) {
        this.incomplete = true;
        found = true;
      }
    }
    return found;
  }

  #findLineDone(bytes: Uint8Array, offset: number): void {
    const text = this.#carry + latin1.decode(bytes);
    const at = text.indexOf(PASTE_OFF);
    if (at >= 0) {
      this.#lineDone = offset - this.#carry.length + at + PASTE_OFF.length;
      this.#carry = "";
    } else {
      this.#carry = text.slice(-(PASTE_OFF.length - 1));
    }
  }
}

/**
 * The wrapper line typed into a shell started inside an integrated one (`bash` typed at its
 * prompt): when that shell ends (`exit 3`), the wrapper's end marker never comes, but the outer
 * shell's end mark does, with the nested shell's status.
 */
export class NestedScanner implements CommandMarks {
  readonly #outer: MarkReader;
  #ended: { offset: number; status: number } | null = null;

  constructor(readonly inner: CommandMarks, nonce: string, private readonly seq: number | null) {
    this.#outer = new MarkReader(nonce);
  }

  get startEnd(): number | null {
    return this.inner.startEnd ?? (this.#ended ? this.#ended.offset : null);
  }

  get end(): { offset: number; status: number } | null {
    return this.inner.end ?? this.#ended;
  }

  get incomplete(): boolean {
    return false;
  }

  get shellExited(): boolean {
    return this.inner.end === null && this.#ended !== null;
  }

  push(bytes: Uint8Array, offset: number): boolean {
    let found = this.inner.push(bytes, offset);
    for (const mark of this.#outer.push(bytes, offset)) {
      const ours = this.seq === null || mark.seq === null || mark.seq >= this.seq;
      if (mark.kind === "E" && ours && this.inner.end === null && this.#ended === null) {
        this.#ended = { offset: mark.offset, status: mark.status ?? 0 };
        found = true;
      }
    }
    return found;
  }
}
