import { Incomplete, Lexer, type Nested, type Token, Unjudgeable } from "./lexer.ts";

/** Nesting deeper than this (subshells, substitutions, wrappers) is not judged: ask. */
export const MAX_DEPTH = 48;
/** Work allowed per character of the line (re-reading `sh -c` strings, eval, backquotes, wrappers). */
const WORK_PER_CHAR = 16;
const BASE_WORK = 10_000;

/**
 * The parser's tokens, one text at a time (the line, then nested ones: backquotes, `sh -c`
 * strings, eval), with the budgets that keep any line linear: work per character and nesting.
 */
export abstract class TokenStream implements Nested {
  readonly reasons: string[] = [];
  protected lexer: Lexer | null = null;
  protected peeked: Token | null = null;
  private depth = 0;
  private work: number;

  constructor(length: number, private readonly interactive: boolean) {
    this.work = BASE_WORK + WORK_PER_CHAR * length;
  }

  /** Commands up to the end of the text (`eof`) or up to the `)` closing a substitution. */
  protected abstract parseList(end: "eof" | ")"): void;

  unclear(reason: string): void {
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
  }

  source(text: string): void {
    this.spend(text.length);
    const saved = { lexer: this.lexer, peeked: this.peeked };
    this.lexer = new Lexer(text, this, this.interactive);
    this.peeked = null;
    try {
      this.nest(() => this.parseList("eof"));
    } catch (error) {
      // Only the typed text itself makes the shell wait for more; an open quote in `sh -c '…'` is an error there.
      if (saved.lexer !== null && error instanceof Incomplete) throw new Unjudgeable(error.message);
      throw error;
    }
    this.lexer = saved.lexer;
    this.peeked = saved.peeked;
  }

  /** The substitutions of a text expanded as in double quotes (a prompt), read as commands. */
  expansions(text: string): void {
    this.spend(text.length);
    const saved = { lexer: this.lexer, peeked: this.peeked };
    const lexer = new Lexer(text, this, this.interactive);
    this.lexer = lexer;
    this.peeked = null;
    try {
      this.nest(() => lexer.scanExpansions(0, text.length));
    } catch (error) {
      throw error instanceof Incomplete ? new Unjudgeable(error.message) : error;
    }
    this.lexer = saved.lexer;
    this.peeked = saved.peeked;
  }

  substitution(): void {
    const saved = this.peeked;
    this.peeked = null;
    this.nest(() => this.parseList(")"));
    this.peeked = saved;
  }

  protected spend(units: number): void {
    this.work -= units;
    if (this.work < 0) throw new Unjudgeable("the line is too complex to judge");
  }

  protected nest(body: () => void): void {
    if (++this.depth > MAX_DEPTH) throw new Unjudgeable("the line nests too deeply to judge");
    body();
    this.depth--;
  }

  protected peek(): Token {
    this.peeked ??= this.lexer!.next();
    return this.peeked;
  }

  protected take(): Token {
    const token = this.peek();
    if (token.kind !== "eof") this.peeked = null;
    return token;
  }

  protected isWord(token: Token, text: string): boolean {
    return token.kind === "word" && token.word.plain && token.word.text === text;
  }

  protected isOp(token: Token, op: string): boolean {
    return token.kind === "op" && token.op === op;
  }
}
