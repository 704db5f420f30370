import { readAnsiC } from "./ansi_c.ts";
import { UNKNOWN, type Word } from "./types.ts";

export type Token =
  | { readonly kind: "word"; readonly word: Word; readonly ioNumber: boolean }
  | { readonly kind: "op"; readonly op: string }
  | { readonly kind: "eof" };

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

const OPERATORS = [
  ";;&",
  "<<<",
  "<<-",
  "&>>",
  "&&",
  "||",
  ";;",
  ";&",
  "|&",
  "<<",
  "<&",
  "<>",
  ">>",
  ">&",
  ">|",
  "&>",
  ";",
  "&",
  "|",
  "(",
  ")",
  "<",
  ">",
];
export const REDIRECTIONS = new Set(["<", ">", ">>", "<<", "<<-", "<<<", "<&", ">&", "<>", ">|", "&>", "&>>"]);
const WORD_END = " \t\n;&|()<>";
const NAME_START = /[A-Za-z_]/;
const NAME_REST = /[A-Za-z0-9_]/;
const SPECIAL_PARAM = /[0-9@*#?$!-]/;
/** History expansion (`!!`, `!-2`, `!rm`) happens unless `!` is followed by one of these. */
const NO_HISTORY = ' \t\n=("';

interface Heredoc {
  readonly delimiter: string;
  readonly expands: boolean;
  readonly strip: boolean;
}

/**
 * Shell text → words and operators, with POSIX and bash quoting. Expansions are not performed:
 * their commands are handed to the parser (`Nested`), their values become UNKNOWN. One pass.
 */
export class Lexer {
  pos = 0;
  private readonly heredocs: Heredoc[] = [];

  constructor(readonly src: string, private readonly nested: Nested, private readonly interactive: boolean) {}

  next(): Token {
    for (;;) {
      const c = this.src[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && this.src[this.pos + 1] === "\n") this.pos += 2;
      else if (c === "#") this.skipComment();
      else break;
    }
    if (this.pos >= this.src.length) return { kind: "eof" };
    const c = this.src[this.pos];
    if (c === "\n") {
      this.pos++;
      this.readHeredocBodies();
      return { kind: "op", op: "\n" };
    }
    if ((c === "<" || c === ">") && this.src[this.pos + 1] === "(") {
      const start = this.pos;
      this.pos += 2;
      this.nested.substitution();
      return this.wordToken({ text: UNKNOWN, raw: this.src.slice(start, this.pos), many: false, plain: false });
    }
    for (const op of OPERATORS) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { kind: "op", op };
      }
    }
    return this.wordToken(this.readWord());
  }

  /** `<<` / `<<-`: its body starts after the next newline. */
  addHeredoc(word: Word, strip: boolean): void {
    this.heredocs.push({ delimiter: word.raw.replace(/["'\\]/g, ""), expands: word.plain, strip });
  }

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
    throw new Unjudgeable("unterminated (( … ))");
  }

  private wordToken(word: Word): Token {
    const c = this.src[this.pos];
    const ioNumber = (c === "<" || c === ">") && /^[0-9]+$/.test(word.raw);
    return { kind: "word", word, ioNumber };
  }

  private skipComment(): void {
    const end = this.src.indexOf("\n", this.pos);
    this.pos = end < 0 ? this.src.length : end;
  }

  private readWord(): Word {
    const start = this.pos;
    let text = "";
    let many = false;
    let plain = true;
    let glob = false;
    let bracket = false;
    let brace = 0; // 1: `{` seen, 2: `,` or `..` after it
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (WORD_END.includes(c)) break;
      if (c === "\\" || c === "'" || c === '"' || c === "`" || c === "$") {
        const part = this.readQuotedOrExpansion();
        text += part.text;
        if (part.expansion && !part.quoted) many = true;
        plain = false;
        continue;
      }
      if (c === "*" || c === "?") glob = true;
      else if (c === "[") bracket = true;
      else if (c === "]" && bracket) glob = true;
      else if (c === "{" && brace === 0) brace = 1;
      else if ((c === "," || (c === "." && this.src[this.pos + 1] === ".")) && brace === 1) brace = 2;
      else if (c === "}" && brace === 2) glob = true;
      else if (c === "~" && this.pos === start) {
        text += UNKNOWN;
        plain = false;
        this.pos++;
        continue;
      } else if (c === "!") this.checkHistory();
      text += c;
      this.pos++;
    }
    const raw = this.src.slice(start, this.pos);
    if (glob) return { text: UNKNOWN, raw, many: true, plain: false };
    return { text, raw, many, plain };
  }

  /** At `\`, a quote, a backquote or `$`: reads that part; its value, UNKNOWN for an expansion. */
  private readQuotedOrExpansion(): { text: string; expansion: boolean; quoted: boolean } {
    const c = this.src[this.pos];
    const n = this.src[this.pos + 1];
    if (c === "\\") {
      if (n === undefined) throw new Unjudgeable("the line ends with a backslash (the shell would wait for more)");
      this.pos += 2;
      return { text: n === "\n" ? "" : n, expansion: false, quoted: true };
    }
    if (c === "'") {
      const end = this.src.indexOf("'", this.pos + 1);
      if (end < 0) throw new Unjudgeable("unterminated single quote");
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
      if (decoded === null) throw new Unjudgeable("unterminated $'…' quote");
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
    throw new Unjudgeable("unterminated double quote");
  }

  private readQuotedOrExpansionInDouble(): string {
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
    throw new Unjudgeable("unterminated ${…}");
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
    throw new Unjudgeable("unterminated backquote");
  }

  private checkHistory(): void {
    if (!this.interactive) return;
    const n = this.src[this.pos + 1];
    if (n !== undefined && !NO_HISTORY.includes(n)) {
      this.nested.unclear("history expansion (!…) makes a line the server cannot see");
    }
  }

  /** After a newline: the bodies of the here-documents named on the line just ended. */
  private readHeredocBodies(): void {
    for (const doc of this.heredocs.splice(0)) {
      const bodyStart = this.pos;
      let bodyEnd = this.src.length;
      let after = this.src.length;
      while (this.pos < this.src.length) {
        const eol = this.src.indexOf("\n", this.pos);
        const lineEnd = eol < 0 ? this.src.length : eol;
        let line = this.src.slice(this.pos, lineEnd);
        if (doc.strip) line = line.replace(/^\t+/, "");
        if (line === doc.delimiter) {
          bodyEnd = this.pos;
          after = eol < 0 ? lineEnd : eol + 1;
          break;
        }
        this.pos = eol < 0 ? lineEnd : eol + 1;
      }
      if (doc.expands) this.scanExpansions(bodyStart, bodyEnd);
      this.pos = after;
    }
  }

  /** A here-document with an unquoted delimiter runs the substitutions in its body. */
  private scanExpansions(start: number, end: number): void {
    this.pos = start;
    while (this.pos < end) {
      const c = this.src[this.pos];
      if (c === "\\") this.pos += 2;
      else if (c === "$" || c === "`") this.readQuotedOrExpansionInDouble();
      else this.pos++;
    }
  }
}
