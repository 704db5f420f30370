import { Incomplete, REDIRECTIONS, Unjudgeable } from "./lexer.ts";
import { MAX_DEPTH, TokenStream } from "./tokens.ts";
import type { JudgeOptions, SimpleCommand, Word } from "./types.ts";
import { assignmentRuns, unwrap } from "./wrappers.ts";
import { runTimeWord } from "./words.ts";

/** Every simple command a line would run, and what in it cannot be judged exactly. */
export interface Parsed {
  readonly commands: readonly SimpleCommand[];
  readonly unclear: readonly string[];
  /** The text stops inside a quote, `$(`, `case` …: a shell would wait for more. */
  readonly incomplete: boolean;
}

const SKIPPED_WORDS = new Set([
  ...["if", "then", "elif", "else", "fi", "do", "done", "while", "until", "{", "}", "!"],
  ...["begin", "end", "and", "or", "not"], // fish
]);
const INPUT_REDIRECTIONS = new Set(["<", "<<", "<<-", "<<<", "<>", "<&"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Never throws: anything it cannot read is one more `unclear` reason. Linear in the line's length. */
export function parseLine(line: string, options: JudgeOptions = {}, seeThrough = true): Parsed {
  const parser = new Parser(line.length, options.interactive ?? false, seeThrough);
  let incomplete = false;
  try {
    parser.source(line);
  } catch (error) {
    parser.unclear(error instanceof Unjudgeable ? error.message : "the line cannot be parsed");
    incomplete = error instanceof Incomplete;
  }
  return { commands: parser.commands, unclear: parser.reasons, incomplete };
}

class Parser extends TokenStream {
  readonly commands: SimpleCommand[] = [];
  /** The next command reads the pipe of the one before (`a | b`). */
  private piped = false;

  constructor(length: number, interactive: boolean, private readonly seeThrough: boolean) {
    super(length, interactive);
  }

  /** Commands up to `end`: the end of the text, the `)` of a subshell or substitution, or a case item's end. */
  protected parseList(end: "eof" | ")" | "case"): void {
    for (;;) {
      const token = this.peek();
      if (token.kind === "eof") {
        if (end === "eof") return;
        throw new Incomplete(end === ")" ? "unterminated ( or $(" : "unterminated case");
      }
      if (token.kind === "word") {
        if (end === "case" && this.isWord(token, "esac")) return;
        this.parseCommand();
        continue;
      }
      if (REDIRECTIONS.has(token.op)) {
        this.parseCommand();
        continue;
      }
      this.take();
      this.piped = token.op === "|" || token.op === "|&";
      if (token.op === ")") {
        if (end === ")") return;
        throw new Unjudgeable("unbalanced )");
      }
      if (token.op === "(") this.parseParen();
      else if (end === "case" && token.op.startsWith(";") && token.op.length > 1) return;
    }
  }

  /** After `(`: `((` arithmetic, or a subshell. */
  private parseParen(): void {
    const lexer = this.lexer!;
    if (this.peeked === null && lexer.src[lexer.pos] === "(") {
      const at = lexer.pos;
      lexer.pos++;
      if (lexer.readArithmetic()) return;
      lexer.pos = at;
    }
    this.nest(() => this.parseList(")"));
  }

  private parseCommand(): void {
    const assignments: Word[] = [];
    const words: Word[] = [];
    const input = { reads: this.piped };
    this.piped = false;
    try {
      this.readCommand(assignments, words, input);
    } catch (error) {
      // Cut short (an open quote …): the words so far still count, and whatever follows may be anything.
      if (error instanceof Unjudgeable && words.length > 0) {
        this.emit({ assignments, words: [...words, runTimeWord("…", true)], input: input.reads }, 0);
      }
      throw error;
    }
  }

  /** A simple command's words, assignments and redirections; compound commands start here too. */
  private readCommand(assignments: Word[], words: Word[], input: { reads: boolean }): void {
    for (;;) {
      const token = this.peek();
      if (token.kind === "word") {
        if (token.ioNumber) {
          this.take();
          continue;
        }
        if (words.length === 0 && assignments.length === 0 && token.word.plain && this.compound(token.word.text)) {
          if (!SKIPPED_WORDS.has(token.word.text) && token.word.text !== "time") return;
          continue;
        }
        this.take();
        if (words.length === 0 && ASSIGNMENT.test(token.word.raw)) {
          assignments.push(token.word);
          if (token.word.raw.endsWith("=")) this.skipArray();
        } else {
          words.push(token.word);
        }
        continue;
      }
      if (token.kind === "op" && REDIRECTIONS.has(token.op)) {
        this.take();
        input.reads ||= INPUT_REDIRECTIONS.has(token.op);
        const target = this.peek();
        if (target.kind === "word") {
          this.take();
          if (token.op === "<<" || token.op === "<<-") this.lexer!.addHeredoc(target.word, token.op === "<<-");
        }
        continue;
      }
      if (token.kind === "op" && token.op === "(" && words.length > 0) {
        this.take(); // `name ()`: a function definition; its body is judged as if it ran
        if (words.length === 1 && assignments.length === 0 && this.isOp(this.peek(), ")")) {
          this.take();
          return;
        }
        // `!(x)`, `*(e:…:)`, `=(cmd)`: extended globs and zsh's qualifiers can run code; else a syntax error.
        // Ask, and read on as if it were a subshell, so a deny later on the line still counts.
        this.unclear("a ( right after words (an extended glob, a zsh qualifier or a syntax error)");
        this.emit({ assignments, words, input: input.reads }, 0);
        this.nest(() => this.parseList(")"));
        return;
      }
      break;
    }
    this.emit({ assignments, words, input: input.reads }, 0);
  }

  /** `a=(x y)`: an array's words are values, not commands. */
  private skipArray(): void {
    if (!this.isOp(this.peek(), "(")) return;
    this.take();
    for (let token = this.take(); token.kind !== "eof" && !this.isOp(token, ")"); token = this.take());
  }

  /** A reserved word in command position (consumed): true if it starts or continues a compound command. */
  private compound(name: string): boolean {
    if (SKIPPED_WORDS.has(name)) {
      this.take();
      return true;
    }
    switch (name) {
      case "time": // bash's keyword times a whole pipeline, `time { …; }` included
        this.take();
        if (this.isWord(this.peek(), "-p")) this.take();
        return true;
      case "case":
        this.take();
        this.parseCase();
        return true;
      case "for":
      case "select":
        this.take();
        this.parseForHead();
        return true;
      case "function":
        this.take();
        if (this.peek().kind === "word") this.take();
        if (this.isOp(this.peek(), "(")) {
          this.take();
          if (this.isOp(this.peek(), ")")) this.take();
        }
        return true;
      case "[[":
        this.take();
        for (let token = this.take(); token.kind !== "eof" && !this.isWord(token, "]]"); token = this.take());
        return true;
    }
    return false;
  }

  /** After `for`/`select`: the name and its `in` words (values, not commands); or `((…))`. */
  private parseForHead(): void {
    if (this.isOp(this.peek(), "(")) {
      this.take();
      const lexer = this.lexer!;
      if (lexer.src[lexer.pos] === "(") lexer.pos++;
      if (!lexer.readArithmetic()) throw new Unjudgeable("a for ((…)) loop that cannot be read");
      return;
    }
    for (let token = this.peek(); token.kind === "word"; token = this.peek()) this.take();
  }

  /** After `case`: the subject, `in`, then items `pattern) commands ;;` up to `esac`. */
  private parseCase(): void {
    for (let token = this.peek(); token.kind === "word" || this.isOp(token, "\n"); token = this.peek()) {
      this.take();
      if (this.isWord(token, "in")) break;
    }
    for (;;) {
      const token = this.take();
      if (token.kind === "eof") throw new Incomplete("unterminated case");
      if (this.isWord(token, "esac")) return;
      if (token.kind === "op" && token.op !== ")") continue; // newlines, `(` and `|` between patterns
      if (token.kind === "op") this.parseList("case");
    }
  }

  /** Records a simple command, then what its wrappers run (`sudo X`, `sh -c "X"`, `xargs X`). */
  private emit(command: SimpleCommand, level: number): void {
    if (level > MAX_DEPTH) throw new Unjudgeable("wrappers nest too deeply to judge");
    const inners = this.seeThrough ? command.assignments.flatMap(assignmentRuns) : [];
    if (command.words.length > 0) {
      this.spend(command.words.length);
      this.commands.push(command);
      if (this.seeThrough) inners.push(...unwrap(command.words, command.input ?? false));
    }
    for (const inner of inners) {
      if (inner.kind === "words") this.emit({ assignments: [], words: inner.words }, level + 1);
      else if (inner.kind === "line") this.nest(() => this.source(inner.text));
      else if (inner.kind === "expansions") this.expansions(inner.text);
      else this.unclear(inner.reason);
    }
  }
}
