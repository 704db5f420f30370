import { lastMark, type Mark, type MarkReader, type ShellMarks } from "../integration/mod.ts";
import { readLogRange } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { PaneStream } from "./stream.ts";
import { wakeOn } from "./typed.ts";

/** How far back the log is searched for the shell's last mark. */
const TAIL_BYTES = 64 * 1024;
/** What the stream reads before the log's end (see Typist.prepare): the prompt and its P mark. */
export const LOOK_BACK = 4096;
/** After an end mark, how long the prompt may take to be drawn (a slow prompt theme). */
const PROMPT_DRAW_MS = 3_000;
const DEAD_CHECK_MS = 250;
/**
 * While no mark has come, how often the OS is asked whether the shell already waits at its prompt:
 * first after 60 ms, then less and less often up to every 400 ms while the answer is no (each look
 * is a few processes, which compete for CPU with the start-up files they wait for: a heavy shell's
 * first command came ~50 ms later with a look every 60 ms); a first yes is confirmed 60 ms later.
 */
const PROMPT_CHECK_MS = 60;
const PROMPT_CHECK_MAX_MS = 400;
const PROMPT_CHECK_GROWTH = 1.5;

/**
 * `ready`: the integrated shell waits at its prompt. `busy`: something else has the terminal (a
 * command runs, a nested shell, a continuation prompt). `unmarked`: this shell prints no marks
 * (it said so, or it never printed any).
 */
export type PromptState = "ready" | "busy" | "unmarked";

/**
 * Where an integrated pane's shell is, from the marks in its log: its last mark is the P mark of
 * this very shell (its pid) when it waits at its prompt. With an E mark last, the prompt is being
 * drawn and its P mark is awaited; with no mark yet in a young log, the start-up files still run
 * and the first P mark is awaited, until the shell itself says where it is: a shell that waits for
 * terminal input (`atPrompt`, from process facts) twice in a row with no mark in its log has drawn a prompt
 * without one (a wrapper that dropped our start-up file, an rc that replaced the shell). `graceMs`
 * only bounds the wait when the OS cannot be asked. `stream` must be open from the log's end.
 */
export async function markedPrompt(
  stream: PaneStream,
  pane: PaneInfo,
  marks: ShellMarks,
  reader: MarkReader,
  options: {
    graceMs: number;
    signal?: AbortSignal;
    isDead: () => Promise<boolean>;
    /** The pane's shell holds the terminal and waits for input (at a prompt); null when unknown. */
    atPrompt?: () => Promise<boolean | null>;
    /** How often atPrompt is asked while no mark has come (default 60 ms; a host's link: less often). */
    checkMs?: number;
  },
): Promise<{ state: PromptState; last: Mark | null }> {
  const judge = (mark: Mark): PromptState | null => {
    if (mark.kind === "P") return mark.pid === pane.pid ? "ready" : "busy";
    if (mark.kind === "N") return "unmarked";
    return mark.kind === "E" ? null : "busy";
  };
  await stream.caughtUp(options.signal);
  // The look-back holds the prompt's P mark when the shell waits; else look further back.
  const from = Math.max(0, stream.start - TAIL_BYTES);
  const tail = reader.last === null && from < stream.start - LOOK_BACK
    ? lastMark(await readLogRange(pane.logPath!, from, stream.start), from, marks.nonce)
    : null;
  let last: Mark | null = reader.last ?? tail;
  if (last === null && stream.start > TAIL_BYTES) return { state: "unmarked", last }; // no mark for a long while
  const deadline = performance.now() + (last === null ? options.graceMs : PROMPT_DRAW_MS);
  // Consecutive answers "at its prompt" with no mark: the second one is taken (a mark printed just
  // before the first look has had a whole interval to reach the log).
  let atPromptSeen = 0;
  const firstCheck = options.checkMs ?? PROMPT_CHECK_MS;
  let checkMs = firstCheck;
  for (;;) {
    const state = last === null ? null : judge(last);
    if (state !== null) return { state, last };
    const now = performance.now();
    if (now >= deadline) return { state: last === null ? "unmarked" : "busy", last };
    options.signal?.throwIfAborted();
    const pause = last === null && options.atPrompt ? checkMs : DEAD_CHECK_MS;
    await wakeOn(stream.changed(), Math.min(pause, deadline - now), options.signal);
    last = reader.last ?? last;
    if (last !== null) continue;
    // The OS is asked aside: a mark that comes meanwhile is taken at once (through a host's link
    // the answer is a round trip away).
    const check = (async () => {
      if (await options.isDead()) return "dead" as const;
      return options.atPrompt ? await options.atPrompt() : null;
    })();
    const answer = await untilMark(check, stream, reader, options.signal);
    last = reader.last ?? last;
    if (last !== null) continue;
    if (answer === "dead") return { state: "busy", last };
    atPromptSeen = answer === true ? atPromptSeen + 1 : 0;
    if (atPromptSeen >= 2) return { state: "unmarked", last };
    checkMs = atPromptSeen > 0
      ? firstCheck
      : Math.max(firstCheck, Math.min(checkMs * PROMPT_CHECK_GROWTH, PROMPT_CHECK_MAX_MS));
  }
}

/** The check's answer, or undefined as soon as a mark is read first. */
async function untilMark<T>(
  check: Promise<T>,
  stream: PaneStream,
  reader: MarkReader,
  signal?: AbortSignal,
): Promise<T | undefined> {
  let answered = false;
  const done = check.finally(() => answered = true);
  done.catch(() => {});
  while (!answered && reader.last === null) {
    await wakeOn(Promise.race([done.then(() => {}, () => {}), stream.changed()]), DEAD_CHECK_MS, signal);
  }
  return reader.last === null ? await done : undefined;
}
