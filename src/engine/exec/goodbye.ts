import type { Typed } from "./typed.ts";

/**
 * bash's `exit` builtin prints `exit` (`logout` in a login shell) on the terminal before the shell
 * ends, when it reads commands from the terminal: a command typed as it is into an integrated bash
 * (`echo x; exit 5`). A wrapper line sources a file, where bash prints nothing. No hook runs
 * before that line, so it is recognised as the last line the shell wrote.
 */
const GOODBYES = ["exit", "logout"].flatMap((word) => [`${word}\r\n`, `${word}\n`]);
const latin1 = new TextDecoder("latin1");

/**
 * Where the output of a command whose shell ended stops: at `end` (what was received), or before
 * the shell's goodbye line when that is the last line of the output.
 */
export function endBeforeGoodbye(typed: Typed, start: number, end: number): number {
  if (typed.marks?.shell !== "bash") return end;
  const longest = Math.max(...GOODBYES.map((line) => line.length)) + 1;
  const from = Math.max(start, end - longest);
  const tail = latin1.decode(typed.collector.slice(from, end));
  for (const line of GOODBYES) {
    if (!tail.endsWith(line)) continue;
    const at = end - line.length;
    // A whole line: the output's first, or after a newline.
    if (at === start || tail[tail.length - line.length - 1] === "\n") return at;
  }
  return end;
}
