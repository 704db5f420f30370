import type { TmuxServer } from "../../tmux/server.ts";

/** The pane option naming the last question a turn returned (a hash of its text). */
const ASKED_OPTION = "@tmuxwright_asked";
/**
 * A question already returned and still on screen when a call begins was most likely answered
 * a moment ago (send_keys), the CLI not redrawn yet: it is not returned again for this long.
 */
const ANSWER_GRACE_MS = 1000;

/** What a turn does with a look that shows a question to the agent's person. */
export type QuestionVerdict =
  /** Return it now (`outcome: "input"`). */
  | { kind: "ask" }
  /** Not yet: look again at `at` (performance.now()): it was answered a moment ago, or it has just appeared. */
  | { kind: "later"; at: number };

/**
 * The questions of one turn: one already returned is not returned again at once (its answer may
 * be on its way), and a new one is returned once it has stood `settleMs` (Claude Code ignores the
 * keys a dialog gets in its first ~0.1 s: an answer sent at once would be lost).
 */
export class TurnQuestions {
  readonly #started = performance.now();
  #seen: { hash: string; at: number } | null = null;

  private constructor(private readonly answered: string | null, private readonly settleMs: number) {}

  /** Reads which question was returned last in this pane. */
  static async open(tmux: TmuxServer, paneId: string, settleMs: number): Promise<TurnQuestions> {
    const [value] = await tmux.run("display-message", "-p", "-t", paneId, `#{${ASKED_OPTION}}`).catch(() => [""]);
    return new TurnQuestions(value || null, settleMs);
  }

  judge(question: string | null, now = performance.now()): QuestionVerdict {
    const hash = hashOf(question);
    if (hash === this.answered && now - this.#started < ANSWER_GRACE_MS) {
      return { kind: "later", at: this.#started + ANSWER_GRACE_MS };
    }
    if (this.#seen?.hash !== hash) this.#seen = { hash, at: now };
    const due = this.#seen.at + this.settleMs;
    return now >= due ? { kind: "ask" } : { kind: "later", at: due };
  }

  /** Notes the question returned, for the next call on this pane. */
  static async returned(tmux: TmuxServer, paneId: string, question: string | null): Promise<void> {
    await tmux.run("set-option", "-p", "-t", paneId, ASKED_OPTION, hashOf(question)).catch(() => {});
  }
}

function hashOf(question: string | null): string {
  let hash = 0x811c9dc5; // FNV-1a
  for (const char of question ?? "") hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash.toString(16);
}
