import {
  type AgentCli,
  BRAILLE_SPINNER,
  lastIndex,
  programOf,
  type ScreenReading,
  type ScreenReply,
  trimBlank,
  unmark,
} from "./cli.ts";

/**
 * Codex CLI (0.169.0). Its screen, bottom up: a footer and a status line, the input box (`› ` and
 * the input, or its placeholder), `• Working (3s • esc to interrupt)` above it while it works, and
 * the transcript: the input echoed after `› `, blocks after `• ` (a message, a command it ran), a
 * done line when a turn ends (`  Worked for 5s • 20:05`). A question (running a command) replaces
 * the box: the question's lines, then numbered choices, the one under the cursor after `› `, then
 * `Press enter to confirm or esc to cancel`. Its terminal title says it too: a braille spinner
 * while it works, `[ . ] Action Required` while it asks.
 */
const PROMPT = /^› /;
const CHOICE = /^› \d+\. /;
const WORKING = /^[•◦] Working \(/;
const DONE = /^\s+Worked for |^■ /;
/** Block markers at the left edge: a message or command (`•`), an answer to a question (`✔`, `✗`), an end (`■`). */
const BLOCK = /^[•◦✔✗■›] /;
const MARK = /^[•◦] /;
const TIP = /^\s*└ Tip: /;

export const codexCli: AgentCli = {
  id: "codex",
  name: "Codex CLI",
  runs(words) {
    const { program } = programOf(words);
    return program === "codex" || program === "codex.js";
  },
  endLine: true,
  enterDelayMs: 0,
  titleSays(title) {
    if (/Action Required/.test(title)) return "asking";
    if (BRAILLE_SPINNER.test(title.trimStart().slice(0, 1))) return "working";
    return null; // the project's name when it waits, but the host's name (tmux's default) before it starts
  },
  read,
  reply,
};

/**
 * The input box: the last `› ` line that is not a choice, with only the frame below it, its status
 * line (`model · folder`) among it (-1: none). While Codex starts, a box shows under its logo with
 * no status line, and an Enter then is taken as a newline.
 */
function box(lines: readonly string[]): number {
  const at = lastIndex(lines, (l) => PROMPT.test(l));
  if (at < 0 || CHOICE.test(lines[at])) return -1;
  const below = lines.slice(at + 1);
  const framed = below.length <= 8 && !below.some((l) => BLOCK.test(l)) && below.some((l) => l.includes(" · "));
  return framed ? at : -1;
}

function read(lines: readonly string[]): ScreenReading {
  const at = box(lines);
  if (at >= 0) {
    const working = trimBlank(lines.slice(0, at)).slice(-2).some((l) => WORKING.test(l));
    return { activity: working ? "working" : "idle", question: null };
  }
  const choice = lastIndex(lines, (l) => CHOICE.test(l));
  if (choice >= 0) return { activity: "asking", question: question(lines, choice) };
  return { activity: null, question: null };
}

/** From below the block the question belongs to (`• Running …`): its lines, its choices, what follows. */
function question(lines: readonly string[], choice: number): string {
  const block = lastIndex(lines, (l) => BLOCK.test(l) && !CHOICE.test(l), choice - 1);
  const shown = lines.slice(block + 1).map((l) => l.replace(/^(?:› | {2})/, ""));
  // Codex sets every line apart with blank ones: one is kept between paragraphs.
  return trimBlank(shown.filter((l, i) => l.trim() !== "" || (shown[i - 1] ?? "").trim() !== "")).join("\n");
}

function reply(lines: readonly string[]): ScreenReply {
  const at = box(lines);
  const end = at >= 0 ? at : lines.length;
  const echo = lastIndex(lines, (l) => PROMPT.test(l) && !CHOICE.test(l), end - 1);
  let start = echo + 1;
  while (echo >= 0 && start < end && lines[start].trim() !== "") start++; // the input's other lines
  const turn = lines.slice(start, end);
  const ended = turn.some((l) => DONE.test(l));
  const body = turn.filter((l) => !DONE.test(l) && !WORKING.test(l) && !TIP.test(l));
  const last = lastIndex(body, (l) => MARK.test(l));
  return {
    text: trimBlank(unmark(body.slice(Math.max(0, last)), MARK)).join("\n"),
    echo: echo >= 0 ? lines[echo].replace(PROMPT, "") : null,
    ended,
  };
}
