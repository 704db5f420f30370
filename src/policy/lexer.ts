import { Incomplete, type Nested, QuotingReader } from "./quoting.ts";
import { UNKNOWN, type Word } from "./types.ts";

export { Incomplete, type Nested, Unjudgeable } from "./quoting.ts";

export type Token =
  | { readonly kind: "word"; readonly word: Word; readonly ioNumber: boolean }
  | { readonly kind: "op"; readonly op: string }
  | { readonly kind: "eof" };

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

interface Heredoc {
  readonly delimiter: string;
  readonly expands: boolean;
  readonly strip: boolean;
}

/**
 * Shell text → words and operators, with POSIX and bash quoting (QuotingReader). Expansions are
 * not performed: their commands are handed to the parser (`Nested`), their values become UNKNOWN.
 */
export class Lexer extends QuotingReader {
  private readonly heredocs: Heredoc[] = [];

  constructor(src: string, nested: Nested, interactive: boolean) {
    super(src, nested, interactive);
  }

  next(): Token {
    for (;;) {
      const c = this.src[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && this.src[this.pos + 1] === "\n") this.pos += 2;
      else if (c === "#") this.skipComment();
      else break;
    }
    if (this.pos >= this.src.length) {
      if (this.heredocs.length > 0) throw new Incomplete("a here-document whose body has not come yet");
      return { kind: "eof" };
    }
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

  /** After a newline: the bodies of the here-documents named on the line just ended. */
  private readHeredocBodies(): void {
    for (const doc of this.heredocs.splice(0)) {
      const bodyStart = this.pos;
      let bodyEnd = this.src.length;
      let after = this.src.length;
      let ended = false;
      while (this.pos < this.src.length) {
        const eol = this.src.indexOf("\n", this.pos);
        const lineEnd = eol < 0 ? this.src.length : eol;
        let line = this.src.slice(this.pos, lineEnd);
        if (doc.strip) line = line.replace(/^\t+/, "");
        if (line === doc.delimiter) {
          bodyEnd = this.pos;
          after = eol < 0 ? lineEnd : eol + 1;
          ended = true;
          break;
        }
        this.pos = eol < 0 ? lineEnd : eol + 1;
      }
      if (doc.expands) this.scanExpansions(bodyStart, bodyEnd);
      this.pos = after;
      if (!ended) throw new Incomplete(`unterminated here-document (no line ${doc.delimiter})`);
    }
  }
}
