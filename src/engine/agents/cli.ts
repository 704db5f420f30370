/**
 * What tmuxwright knows of one agent CLI (Claude Code, Codex CLI, Gemini CLI): how to tell it runs
 * in a pane, how input reaches it, and how to read its screen. Each CLI is one small description
 * (claude_code.ts, codex_cli.ts, gemini_cli.ts), written against the version the tests pin.
 */

/** What an agent CLI is doing, as a person watching it would say. */
export type AgentActivity = "working" | "idle" | "asking";

export type AgentId = "claude-code" | "codex" | "gemini";

/** What one screen of an agent CLI shows. */
export interface ScreenReading {
  /** What the screen shows for sure; null when it cannot tell (mid-redraw, a view not described). */
  activity: AgentActivity | null;
  /** With `asking`: the question and its choices, as the screen shows them. */
  question: string | null;
}

/** The turn cut out of a screen: what the CLI showed below the person's input, its frame left out. */
export interface ScreenReply {
  text: string;
  /** The first line of the input's echo (null: not on the screen; the turn's start has scrolled off: `text` is its end). */
  echo: string | null;
  /** The CLI's own end-of-turn line follows the turn (Claude Code's "✻ Worked for 5s", Codex's "Worked for"). */
  ended: boolean;
}

export interface AgentCli {
  readonly id: AgentId;
  /** Its name for people: "Claude Code". */
  readonly name: string;
  /** Whether a foreground command line (its words) runs this CLI. */
  runs(words: readonly string[]): boolean;
  /**
   * Milliseconds between the pasted input showing and Enter: Gemini CLI takes an Enter within 30 ms
   * of the keys before it as a newline, not a submission.
   */
  readonly enterDelayMs: number;
  /**
   * How long a question must have stood before it is returned: Claude Code ignores the keys its
   * permission dialog gets in its first 0.1–0.15 s, so an answer sent at once would be lost.
   */
  readonly questionSettleMs?: number;
  /**
   * Its input box still holds input after Enter: the Enter came too soon after the paste and was
   * dropped or taken as a newline (Gemini CLI, when its event loop is slow); Enter again submits
   * it (it drops a trailing newline). Absent: the CLI submits on the first Enter.
   */
  inputLeft?(lines: readonly string[]): boolean;
  /** What its terminal title (OSC 0/2, as tmux keeps it) says, where the CLI sets one; null: nothing. */
  titleSays(title: string): AgentActivity | null;
  /**
   * It draws a line of its own under every turn that ended (Claude Code's "✻ Worked for 5s", Codex's
   * "Worked for 5s"): its screen says a turn ended only with that line (its title may stop
   * spinning for a moment mid-turn).
   */
  readonly endLine: boolean;
  /** What its screen (rows top to bottom, trailing blanks trimmed) shows. */
  read(lines: readonly string[]): ScreenReading;
  /** The last turn on the screen: below the last echo of the person's input, without the frame. */
  reply(lines: readonly string[]): ScreenReply;
}

/** The base name of a path. */
export function baseName(word: string | undefined): string {
  return (word ?? "").slice((word ?? "").lastIndexOf("/") + 1);
}

/** Runtimes a CLI's script runs under: `node /…/bin/codex` is Codex. */
const RUNTIMES = new Set(["node", "nodejs", "bun", "deno"]);

/** The program a command line runs: its first word, or the script a runtime runs. */
export function programOf(words: readonly string[]): { program: string; path: string } {
  const first = baseName(words[0]);
  if (!RUNTIMES.has(first)) return { program: first, path: words[0] ?? "" };
  // The first word that is not an option is the script (`node --max-old-space-size=… gemini`).
  const script = words.slice(1).find((w) => !w.startsWith("-")) ?? "";
  return { program: baseName(script), path: script };
}

/** Index of the last line that passes `test` at or before `from` (-1: none). */
export function lastIndex(lines: readonly string[], test: (line: string) => boolean, from = lines.length - 1): number {
  for (let i = Math.min(from, lines.length - 1); i >= 0; i--) if (test(lines[i])) return i;
  return -1;
}

/** The lines with blank lines dropped from both ends. */
export function trimBlank(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === "") start++;
  while (end > start && lines[end - 1].trim() === "") end--;
  return lines.slice(start, end);
}

/**
 * A turn's blocks as text: each block's marker (`● `, `• `, `✦ `) dropped from its first line and
 * the indentation of its other lines (the marker's width) with it, so a reply reads as written.
 */
export function unmark(lines: readonly string[], marker: RegExp, indent = 2): string[] {
  const pad = " ".repeat(indent);
  return lines.map((line) => {
    const mark = marker.exec(line);
    if (mark && mark.index === 0) return line.slice(mark[0].length);
    return line.startsWith(pad) ? line.slice(indent) : line.trimStart();
  });
}

/** Terminal spinners: the braille frames most TUIs draw (Codex's title, Gemini's status line). */
export const BRAILLE_SPINNER = /[\u2800-\u28ff]/;

/**
 * Whether an echo on screen is of `input`: its first line as the CLI shows it (a start of it, when
 * wrapped or cut), or the placeholder a CLI shows for a long paste (`[Pasted text #1 +12 lines]`).
 */
export function echoes(echo: string | null, input: string): boolean {
  if (echo === null) return false;
  const shown = echo.trim();
  const first = input.trim().split("\n")[0].trim();
  if (/^\[Pasted /.test(shown)) return true;
  const length = Math.min(shown.length, first.length, 40);
  return length > 0 && shown.slice(0, length) === first.slice(0, length);
}
