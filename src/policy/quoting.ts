import { readAnsiC } from "./ansi_c.ts";
import { UNKNOWN } from "./types.ts";

/** What the lexer hands back to the parser: commands nested inside a word. */
export interface Nested {
  /** Parses the commands of a `$(`, `<(` or `>(` up to its closing `)`, consuming it. */
  substitution(): void;
  /** Parses a separate text (the inside of backquotes) as a command line. */
  source(text: string): void;
  /** A part that cannot be judged exactly, but does not stop the parse. */
  unclear(reason: string): void;
}

/** Stops the parse: what follows cannot be read (an unterminated quote, too deep, too much work). */
export class Unjudgeable extends Error {}

/** The text stops inside something open (a quote, `$(`, `case`, a trailing backslash): a shell would wait for more. */
export class Incomplete extends Unjudgeable {}

const NAME_START = /[A-Za-z_]/;
const NAME_REST = /[A-Za-z0-9_]/;
const SPECIAL_PARAM = /[0-9@*#?$!-]/;
/** History expansion (`!!`, `!-2`, `!rm`) happens unless `!` is followed by one of these. */
const NO_HISTORY = ' \t\n=("';

/**
 * The quoting and expansions inside a word (`\`, `'…'`, `"…"`, `$'…'`, `$…`, `${…}`, `$(…)`,
 * backquotes, arithmetic): values after unquoting, UNKNOWN for what only the run would know, and
 * the commands of substitutions handed to the parser. One pass over the text.
 */
export class QuotingReader {
  pos = 0;

  constructor(readonly src: string, protected readonly nested: Nested, private readonly interactive: boolean) {}

  /** After `((` (consumed): an arithmetic command up to `))`. False when it is a nested subshell instead. */
  readArithmetic(): boolean {
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "(") depth++;
      else if (c === ")" && depth > 0) depth--;
      else if (c === ")") {
        if (this.src[this.pos + 1] !== ")") return false;
        this.pos += 2;
        return true;
      } else if (c === "$" || c === "`" || c === "'" || c === '"' || c === "\\") {
        this.readQuotedOrExpansion();
        continue;
      }
      this.pos++;
    }
    throw new Incomplete("unterminated (( … ))");
  }

  /** At `\`, a quote, a backquote or `$`: reads that part; its value, UNKNOWN for an expansion. */
  protected readQuotedOrExpansion(): { text: string; expansion: boolean; quoted: boolean } {
    const c = this.src[this.pos];
    const n = this.src[this.pos + 1];
    if (c === "\\") {
      if (n === undefined) throw new Incomplete("the line ends with a backslash (the shell would wait for more)");
      this.pos += 2;
      return { text: n === "\n" ? "" : n, expansion: false, quoted: true };
    }
    if (c === "'") {
      const end = this.src.indexOf("'", this.pos + 1);
      if (end < 0) throw new Incomplete("unterminated single quote");
      const text = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
      return { text, expansion: false, quoted: true };
    }
    if (c === '"') {
      this.pos++;
      return { text: this.readDouble(), expansion: false, quoted: true };
    }
    if (c === "`") {
      this.readBackquote();
      return { text: UNKNOWN, expansion: true, quoted: false };
    }
    if (n === "'") {
      const decoded = readAnsiC(this.src, this.pos + 2);
      if (decoded === null) throw new Incomplete("unterminated $'…' quote");
      this.pos = decoded.end;
      return { text: decoded.text, expansion: false, quoted: true };
    }
    if (n === '"') {
      this.pos += 2;
      return { text: this.readDouble(), expansion: false, quoted: true };
    }
    return this.readDollar();
  }

  /** Inside double quotes (opening quote consumed), up to and including the closing one. */
  private readDouble(): string {
    let text = "";
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '"') {
        this.pos++;
        return text;
      }
      if (c === "\\") {
        const n = this.src[this.pos + 1];
        if (n === "\n") this.pos += 2;
        else if (n !== undefined && '$`"\\'.includes(n)) {
          text += n;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === "$" || c === "`") {
        text += this.readQuotedOrExpansionInDouble();
      } else {
        if (c === "!") this.checkHistory();
        text += c;
        this.pos++;
      }
    }
    throw new Incomplete("unterminated double quote");
  }

  protected readQuotedOrExpansionInDouble(): string {
    if (this.src[this.pos] === "`") {
      this.readBackquote();
      return UNKNOWN;
    }
    return this.readDollar().text;
  }

  /** At `$` (not `$'` or `$"`). */
  private readDollar(): { text: string; expansion: boolean; quoted: boolean } {
    const n = this.src[this.pos + 1] ?? "";
    const expansion = { text: UNKNOWN, expansion: true, quoted: false };
    if (n === "(") {
      if (this.src[this.pos + 2] === "(") {
        const at = this.pos;
        this.pos += 3;
        if (this.readArithmetic()) return expansion;
        this.pos = at; // `$((a) | b)`: a substitution that starts with a subshell
      }
      this.pos += 2;
      this.nested.substitution();
      return expansion;
    }
    if (n === "{") {
      this.pos += 2;
      this.readBraced();
      return expansion;
    }
    if (NAME_START.test(n)) {
      this.pos += 2;
      while (this.pos < this.src.length && NAME_REST.test(this.src[this.pos])) this.pos++;
      return expansion;
    }
    if (n !== "" && SPECIAL_PARAM.test(n)) {
      this.pos += 2;
      return expansion;
    }
    this.pos++;
    return { text: "$", expansion: false, quoted: false };
  }

  /** After `${`: up to its `}`, reading the commands of any substitution inside (`${x:-$(cmd)}`). */
  private readBraced(): void {
    let depth = 1;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "}" && --depth === 0) {
        this.pos++;
        return;
      }
      if (c === "{") depth++;
      if (c === "\\" || c === "'" || c === '"' || c === "`" || c === "$") this.readQuotedOrExpansion();
      else this.pos++;
    }
    throw new Incomplete("unterminated ${…}");
  }

  /** At a backquote: its inside, unescaped, is a command line of its own. */
  private readBackquote(): void {
    let inner = "";
    let pos = this.pos + 1;
    while (pos < this.src.length) {
      const c = this.src[pos];
      if (c === "`") {
        this.pos = pos + 1;
        this.nested.source(inner);
        return;
      }
      if (c === "\\" && "$`\\".includes(this.src[pos + 1] ?? "")) {
        inner += this.src[pos + 1];
        pos += 2;
      } else {
        inner += c;
        pos++;
      }
    }
    throw new Incomplete("unterminated backquote");
  }

  protected checkHistory(): void {
    if (!this.interactive) return;
    const n = this.src[this.pos + 1];
    if (n !== undefined && !NO_HISTORY.includes(n)) {
      this.nested.unclear("history expansion (!…) makes a line the server cannot see");
    }
  }

  /** A here-document with an unquoted delimiter runs the substitutions in its body. */
  scanExpansions(start: number, end: number): void {
    this.pos = start;
    while (this.pos < end) {
      const c = this.src[this.pos];
      if (c === "\\") this.pos += 2;
      else if (c === "$" || c === "`") this.readQuotedOrExpansionInDouble();
      else this.pos++;
    }
  }
}
