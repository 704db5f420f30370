import type { ShellKind } from "./shell.ts";

/**
 * Start/end markers are OSC sequences (`ESC ] 6973 ; id ; S BEL`), which terminals do not show.
 * The typed line only ever contains `\033` as four printable characters and the id as a
 * separate printf argument, so its echo can never match a marker.
 */
const OSC = "6973";
/** A marker id unique per process (`seq` comes from the caller's own counter) and hard to guess. */
export function newMarkerId(seq: number): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `${Deno.pid.toString(36)}x${seq.toString(36)}x${random}`;
}

export function quoteFor(kind: ShellKind, text: string): string {
  if (kind === "fish") return `'${text.replace(/[\\']/g, "\\$&")}'`;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const statusVar = (kind: ShellKind) => kind === "posix" ? '"$?"' : "$status";
const printMarker = (id: string, tag: string) => `printf '\\033]${OSC};%s;${tag}\\007' ${id}`;
const printEnd = (id: string, kind: ShellKind) => `printf '\\033]${OSC};%s;E;%s\\007' ${id} ${statusVar(kind)}`;

/**
 * The one line typed at the prompt: start marker, the command file run in the current shell
 * (so cd/export persist and stdout stays the terminal), end marker with the status. Nothing is
 * typed after it, so a command reading stdin never sees wrapper text. The leading space keeps
 * it out of history where the shell honours that.
 */
export function wrapperLine(kind: ShellKind, id: string, file: string): string {
  // fish: `source` would run the command without job control (in fish's own process group).
  // csh: `source` runs the file in this shell, as `.` does in sh.
  const run = kind === "fish"
    ? `eval (string collect < ${quoteFor(kind, file)})`
    : `${kind === "csh" ? "source" : "."} ${quoteFor(kind, file)}`;
  return ` ${printMarker(id, "S")}; ${run}; ${printEnd(id, kind)}`;
}

/**
 * The line typed into a remote shell behind `ssh`, where no file of this machine can be read: the
 * command goes in as base64 (only `[A-Za-z0-9+/=]` in the typed line) and is decoded and run
 * there with `eval`, in the shell itself; the remote shell must be a POSIX one with `base64`.
 */
export function inlineLine(id: string, command: string, cwd?: string): string {
  const text = cwd === undefined ? command : `cd ${quoteFor("posix", cwd)} && {\n${command}\n}`;
  const bytes = new TextEncoder().encode(text);
  const base64 = btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
  return ` ${printMarker(id, "S")}; eval "$(printf %s ${base64} | base64 -d)"; ${printEnd(id, "posix")}`;
}

/** Typed at the prompt when the end marker was skipped (shells drop the rest of a line on Ctrl-C). */
export function statusProbeLine(kind: ShellKind, id: string): string {
  return ` ${printEnd(id, kind)}`;
}

/** The command file: an optional cd, then the command text exactly as given. */
export function commandFile(kind: ShellKind, command: string, cwd?: string): string {
  // csh has no `return`: a failed cd ends the sourced file by itself, with status 1.
  const cd = cwd === undefined
    ? ""
    : kind === "fish"
    ? `cd ${quoteFor(kind, cwd)}; or return 1\n`
    : kind === "csh"
    ? `cd ${quoteFor(kind, cwd)}\n`
    : `cd ${quoteFor(kind, cwd)} || return 1\n`;
  return cd + command + (command.endsWith("\n") ? "" : "\n");
}

const latin1 = new TextDecoder("latin1");

/** Finds a call's markers in a byte stream that arrives in arbitrary chunks. */
export class MarkerScanner {
  readonly #start: string;
  readonly #endPrefix: string;
  #carry = "";
  /** Stream offset just after the start marker, once seen. */
  startEnd: number | null = null;
  /** Stream offset of the end marker's first byte, and the status it carried. */
  end: { offset: number; status: number } | null = null;
  /** The wrapper line is always complete (the command text is read from its file). */
  readonly incomplete = false;

  /** `afterStart: false` looks for the end marker alone (a status probe). */
  constructor(id: string, afterStart = true) {
    if (!afterStart) this.startEnd = 0;
    this.#start = `\x1b]${OSC};${id};S\x07`;
    this.#endPrefix = `\x1b]${OSC};${id};E;`;
  }

  /** Feeds bytes at stream offset `offset`; returns true when something new was found. */
  push(bytes: Uint8Array, offset: number): boolean {
    // latin1 keeps one character per byte, so string indexes are byte offsets.
    const text = this.#carry + latin1.decode(bytes);
    const base = offset - this.#carry.length;
    let found = false;
    let from = 0;
    if (this.startEnd === null) {
      const i = text.indexOf(this.#start);
      if (i >= 0) {
        this.startEnd = base + i + this.#start.length;
        from = i + this.#start.length;
        found = true;
      }
    }
    if (this.startEnd !== null && this.end === null) {
      const i = text.indexOf(this.#endPrefix, from);
      if (i >= 0) {
        // deno-lint-ignore no-control-regex
        const match = /^(-?\d{1,10})\x07/.exec(text.slice(i + this.#endPrefix.length, i + this.#endPrefix.length + 12));
        if (match) {
          this.end = { offset: base + i, status: Number(match[1]) };
          found = true;
        } else if (text.length - i < this.#endPrefix.length + 12) {
          this.#carry = text.slice(i);
          return found;
        }
      }
    }
    const keep = Math.min(text.length, this.#endPrefix.length + 12);
    this.#carry = text.slice(text.length - keep);
    return found;
  }
}
