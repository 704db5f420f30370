import { type AgentCli, lastIndex, programOf, type ScreenReading, type ScreenReply, trimBlank, unmark } from "./cli.ts";

/**
 * Gemini CLI (0.61.0). Its screen, bottom up: status lines, the input box (` > ` and the input, or
 * ` >   Type your message…`) under a rule and its mode's hint (` Shift+Tab to accept edits`), a line
 * right above the rule (`? for shortcuts`, and ` ⠋ Thinking... (esc to cancel, 3s)` while it
 * works), and the transcript: the input echoed after ` > `, messages after `✦ `, tools in boxes.
 * Under NO_COLOR the box is drawn with rules (above and below the input, and under the hint) and
 * the echo starts `> `. A question (a tool's permission) is a box with `? `
 * before the tool and numbered choices, the one under the cursor after `● `; the input box is gone
 * meanwhile (a key it gets as the box is drawn was seen lost). Its title says it too:
 * `✦  Working… (dir)`, `✋  Action Required (dir)`, `◇  Ready (dir)`.
 * It takes an Enter within 30 ms of the keys before it, or 40 ms of a paste, as a newline (its
 * `bufferFastReturn` and `recentUnsafePasteTime`), by timers a busy event loop runs late; such an
 * Enter is also seen dropped. The input then stays in the box, and Enter again submits it.
 */
const RULE = /^─{20,}$/;
/** The input box's line. */
const INPUT = /^ > /;
/** An input echoed in the transcript (` > `, `> ` under NO_COLOR). */
const ECHO = /^ ?> /;
/** The mode's hint between the box's rules (` Shift+Tab to accept edits`, ` YOLO mode …`). */
const HINT = /^ \S/;
const WORKING = /\(esc to cancel/;
const MARK = /^✦ /;
/** A line of box drawing alone (a box's top or bottom). */
const BORDER = /^[\s╭╮╰╯─│]*$/;
const PLACEHOLDER = /^ >\s+Type your message/;

export const geminiCli: AgentCli = {
  id: "gemini",
  name: "Gemini CLI",
  runs(words) {
    const { program } = programOf(words);
    return program === "gemini" || program === "gemini.js";
  },
  endLine: false,
  enterDelayMs: 150,
  questionSettleMs: 250,
  inputLeft(lines) {
    const rule = box(lines);
    const prompt = rule < 0 ? -1 : lines.findIndex((l, i) => i > rule && INPUT.test(l));
    return prompt >= 0 && !PLACEHOLDER.test(lines[prompt]);
  },
  titleSays(title) {
    if (/Action Required/.test(title)) return "asking";
    if (/Working…/.test(title)) return "working";
    if (/Ready/.test(title)) return "idle";
    return null;
  },
  read,
  reply,
};

/** The top rule of the input box (-1: no box on screen): the highest rule over its input line, past the hint. */
function box(lines: readonly string[]): number {
  const ruledAbove = (i: number) => lines.slice(Math.max(0, i - 3), i).some((l) => RULE.test(l));
  let input = -1;
  for (let i = lines.length - 1; i >= 0 && input < 0; i--) if (INPUT.test(lines[i]) && ruledAbove(i)) input = i;
  let top = -1;
  for (let i = input - 1; i >= Math.max(0, input - 3); i--) {
    if (RULE.test(lines[i])) top = i;
    else if (lines[i].trim() !== "" && !HINT.test(lines[i])) break;
  }
  return top;
}

/** Where the transcript ends above the box: the line glued to the rule and the blank ones above it. */
function transcriptEnd(lines: readonly string[], rule: number): number {
  let end = rule;
  if (end > 0 && lines[end - 1].trim() !== "" && (/^\s{8}/.test(lines[end - 1]) || WORKING.test(lines[end - 1]))) end--;
  return end;
}

function read(lines: readonly string[]): ScreenReading {
  const rule = box(lines);
  // While it starts, its box shows over an empty screen for seconds (its header comes later), and
  // input then is dropped, taken as a newline or doubled: not idle yet.
  if (rule >= 0 && lines.slice(0, transcriptEnd(lines, rule)).every((l) => l.trim() === "")) {
    return { activity: null, question: null };
  }
  if (rule >= 0) {
    const working = lines.slice(Math.max(0, rule - 3), rule).some((l) => WORKING.test(l));
    return { activity: working ? "working" : "idle", question: null };
  }
  const dialog = questionBox(lines);
  if (dialog) return { activity: "asking", question: dialog };
  return { activity: null, question: null };
}

/** The last box with a numbered choice in it, its borders dropped (null: none). */
function questionBox(lines: readonly string[]): string | null {
  const bottom = lastIndex(lines, (l) => l.startsWith("╰"));
  const top = lastIndex(lines, (l) => l.startsWith("╭"), bottom);
  if (top < 0 || bottom < 0) return null;
  const inner = lines.slice(top + 1, bottom).map((l) => unbox(l));
  if (!inner.some((l) => /^(?:● )?\s*\d+\. /.test(l.trim()))) return null;
  return trimBlank(inner.filter((l) => !BORDER.test(l) || l.trim() === "")).join("\n");
}

/** A box's row without its borders (a box in a box too). */
function unbox(line: string): string {
  let row = line.trimEnd();
  while (row.startsWith("│") && row.endsWith("│")) row = row.slice(1, -1).trim();
  return row;
}

function reply(lines: readonly string[]): ScreenReply {
  const rule = box(lines);
  const end = rule >= 0 ? transcriptEnd(lines, rule) : lines.length;
  const echo = lastIndex(lines, (l) => ECHO.test(l), end - 1);
  let start = echo + 1;
  while (echo >= 0 && start < end && lines[start].trim() !== "") start++; // the input's other lines
  const body = lines.slice(start, end).filter((l) => !WORKING.test(l));
  const last = lastIndex(body, (l) => MARK.test(l));
  // Gemini CLI draws no line of its own at a turn's end: its title and input box say it.
  return {
    text: trimBlank(unmark(body.slice(Math.max(0, last)), MARK)).join("\n"),
    echo: echo >= 0 ? lines[echo].replace(ECHO, "") : null,
    ended: false,
  };
}
