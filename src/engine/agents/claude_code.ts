import { type AgentCli, lastIndex, programOf, type ScreenReading, type ScreenReply, trimBlank, unmark } from "./cli.ts";

/**
 * Claude Code (2.1.328). Its screen, bottom up: a footer (`esc to interrupt` while it works), the
 * input box between two rules (`❯` and a no-break space), status lines right above the box
 * (`◐ medium · /effort`, hints), and the transcript: the person's input echoed after `❯ `, then
 * blocks (`● ` a message or a tool; a tool's result indented), a spinner line while it works
 * (`✽ Flibbertigibbeting…`) and a done line when a turn ends (`✻ Worked for 5s · done 8:04 PM`). A
 * question (a tool's permission) replaces the box with a dialog under a rule: its choices, the
 * one under the cursor marked `❯`. Its own signals are its hooks (claude_hooks.ts).
 */
const RULE = /^─{20,}$/;
/** The echo of an input in the transcript (the box's own `❯` is followed by a no-break space). */
const ECHO = /^❯ /;
const BOX = /^❯[\s\u00a0]?/;
/** A dialog's choice under the cursor: indented, unlike the box. */
const CHOICE = /^\s+❯[\s\u00a0]+\S/;
const SPIN = "[·✢*✶✻✽✳]";
const SPINNER = new RegExp(`^${SPIN} \\S.*…`);
/** The spinner while the turn's Stop hooks run: the model's turn is over. */
const STOPPING = /…\s*\(running Stop hooks?\b/;
const DONE = new RegExp(`^${SPIN} \\S+ for \\d`);
const MARK = /^[●⏺] /;
/** Lines of the frame inside the transcript: tips under the spinner, the wait for a dialog. */
const NOISE = /^\s*(?:⎿\s+Tip: |Waiting for permission…)/;

export const claudeCode: AgentCli = {
  id: "claude-code",
  name: "Claude Code",
  runs(words) {
    const { program, path } = programOf(words);
    return program === "claude" || program === "claude.exe" ||
      (program === "cli.js" && path.includes("claude-code"));
  },
  endLine: true,
  enterDelayMs: 0,
  questionSettleMs: 250,
  titleSays: () => null, // its title stays "✳ Claude Code"
  read,
  reply,
};

/** The input box: the last two rules with a `❯` line right below the first. */
function box(lines: readonly string[]): { top: number; bottom: number } | null {
  const bottom = lastIndex(lines, (l) => RULE.test(l));
  const top = lastIndex(lines, (l) => RULE.test(l), bottom - 1);
  if (top < 0 || !BOX.test(lines[top + 1] ?? "")) return null;
  return { top, bottom };
}

function read(lines: readonly string[]): ScreenReading {
  const found = box(lines);
  if (found) {
    const footer = lines.slice(found.bottom + 1).join(" ");
    const above = trimBlank(lines.slice(0, transcriptEnd(lines, found.top))).slice(-4);
    const spinner = above.find((l) => SPINNER.test(l));
    const working = spinner !== undefined ? !STOPPING.test(spinner) : footer.includes("esc to interrupt");
    return { activity: working ? "working" : "idle", question: null };
  }
  const dialog = dialogStart(lines);
  if (dialog >= 0) return { activity: "asking", question: question(lines.slice(dialog + 1)) };
  return { activity: null, question: null };
}

/** The rule a dialog starts under, when a choice under the cursor follows it (-1: no dialog). */
function dialogStart(lines: readonly string[]): number {
  const rule = lastIndex(lines, (l) => RULE.test(l));
  return rule >= 0 && lines.slice(rule + 1).some((l) => CHOICE.test(l)) ? rule : -1;
}

function question(lines: readonly string[]): string {
  return trimBlank(lines.filter((l) => !/^╌+$/.test(l)).map((l) => l.replace(/^ /, ""))).join("\n");
}

/** Where the transcript ends above the box: the status lines glued to its top rule are frame. */
function transcriptEnd(lines: readonly string[], top: number): number {
  let end = top;
  while (end > 0 && lines[end - 1].trim() !== "" && (lines[end - 1].includes(" · ") || NOISE.test(lines[end - 1]))) {
    end--;
  }
  return end;
}

function reply(lines: readonly string[]): ScreenReply {
  const found = box(lines);
  const dialog = found ? -1 : dialogStart(lines);
  const end = found ? transcriptEnd(lines, found.top) : dialog >= 0 ? dialog : lines.length;
  const echo = lastIndex(lines, (l) => ECHO.test(l), end - 1);
  let start = echo + 1;
  while (echo >= 0 && start < end && lines[start].trim() !== "") start++; // the input's other lines
  const turn = lines.slice(start, end);
  const ended = turn.some((l) => DONE.test(l));
  const body = turn.filter((l) => !DONE.test(l) && !SPINNER.test(l) && !NOISE.test(l));
  // The turn's last message: its last `● ` block to the end (a tool's block before it stays on screen).
  const last = lastIndex(body, (l) => MARK.test(l));
  return {
    text: trimBlank(unmark(body.slice(Math.max(0, last)), MARK)).join("\n"),
    echo: echo >= 0 ? lines[echo].replace(ECHO, "") : null,
    ended,
  };
}
