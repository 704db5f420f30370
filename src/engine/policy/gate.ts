import { AsyncLocalStorage } from "node:async_hooks";
import type { CommandJudge, Judgement } from "../../policy/mod.ts";
import { ToolError } from "../errors.ts";
import { type Typed, typedLines } from "./typing.ts";
import { howToAllow, ruleText, unseenLine } from "./messages.ts";
import { OpenQuestions } from "./questions.ts";

/** The person's answer to a question, and who gave it (the client, and its MCP session over HTTP). */
export interface Answer {
  readonly choice: "once" | "session" | "refuse" | "cancel";
  readonly by: string;
}

/** What the person is asked. */
export interface Question {
  readonly command: string;
  readonly pane: string | null;
  readonly host: string;
  readonly judgement: Judgement;
  readonly tool: string;
}

/** Asks the person through the client that made the call. */
export type Ask = (question: Question) => Promise<Answer>;

/** Set by the MCP layer around each tool call: who is calling and how to ask its person. */
export interface CallScope {
  readonly tool: string;
  /** null: the client cannot be asked (no elicitation). */
  readonly ask: Ask | null;
  /** Command lines the person allowed for the rest of this MCP session. */
  readonly allowed: Set<string>;
  /** The calling MCP client's name, when it gave one (shown with its open questions). */
  readonly agent?: string | null;
}

/** One decision, for the audit log. */
export interface Decision {
  readonly tool: string;
  readonly pane: string | null;
  readonly host: string;
  readonly command: string;
  readonly judgement: Judgement;
  /** allowed | denied, or for an ask: once | session | remembered | refused | cancelled | unavailable */
  readonly outcome: string;
  readonly answeredBy?: string;
}

/** Text about to reach a shell, or a program about to start. */
export interface CommandCheck {
  readonly command: string;
  readonly pane: string | null;
  readonly host: string;
  /** Typed at an interactive prompt (history expansion applies). */
  readonly interactive?: boolean;
}

/** A pane about to be typed into: its id and what runs in its foreground (tmux's pane_current_command). */
export interface TypingTarget {
  readonly paneId: string;
  readonly command: string;
}

/** Variables whose value runs code in the shells that inherit them (see src/policy/programs.ts). */
const CODE_VARIABLES = /^(PROMPT_COMMAND|PS[0-4]|BASH_ENV|ENV|ZDOTDIR|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT)$/;
/** Typed text kept for at most this many panes (the oldest is forgotten first). */
const MAX_PENDING = 1000;
const MAX_PENDING_CHARS = 64 * 1024;
const SHELLS = new Set(["bash", "zsh", "dash", "sh", "ash", "ksh", "mksh", "yash", "busybox", "fish", "tcsh", "csh"]);

/**
 * The one place commands are judged before they reach a shell. The engine's entries where text
 * reaches a shell or a program starts call `check` (or `checkTyping`); the MCP layer runs each
 * tool call `within` its scope, so an ask reaches the person behind the calling client.
 */
export class PolicyGate {
  readonly #calls = new AsyncLocalStorage<CallScope>();
  /** Per `host:pane`: text typed into its shell without Enter yet (judged with what completes it). */
  readonly #pending = new Map<string, string | null>();
  /** The questions awaiting a person's answer now. */
  readonly questions = new OpenQuestions();

  constructor(
    readonly judge: CommandJudge | null,
    private readonly record: (decision: Decision) => Promise<void> = () => Promise.resolve(),
  ) {}

  within<T>(scope: CallScope, body: () => T): T {
    return this.#calls.run(scope, body);
  }

  /** Resolves when the command may run; throws POLICY_DENIED, POLICY_DECLINED or POLICY_ASK_UNAVAILABLE. */
  async check(check: CommandCheck): Promise<void> {
    if (this.judge === null) return;
    const judgement = this.judge.judge(check.command, { interactive: check.interactive });
    await this.#decide(check, judgement);
  }

  /**
   * Keys or text about to be typed into a pane. Judged only when a shell is in its foreground (at
   * its prompt): every line the keys make it run, and text left on the line with what was typed before.
   */
  async checkTyping(target: TypingTarget, host: string, parts: readonly Typed[]): Promise<void> {
    if (this.judge === null || !SHELLS.has(target.command.replace(/^-/, ""))) return;
    const key = `${host}:${target.paneId}`;
    // null: the line holds what keys changed (not ""; `??` would forget it).
    const typed = typedLines(this.#pending.has(key) ? this.#pending.get(key)! : "", parts);
    const check = (command: string) => ({ command, pane: target.paneId, host, interactive: true });
    // Lines run one after another are one script to the shell (a heredoc, a loop over lines); a line keys
    // changed stands alone.
    const blocks: (string | null)[] = [];
    for (const line of typed.run) {
      const last = blocks.length - 1;
      if (line !== null && last >= 0 && blocks[last] !== null) blocks[last] += `\n${line}`;
      else blocks.push(line);
    }
    const tail = blocks.length > 0 && blocks[blocks.length - 1] !== null ? blocks.pop()! : null;
    for (const block of blocks) {
      await this.#decide(
        check(block ?? ""),
        block === null ? unseenLine() : this.judge.judge(block, { interactive: true }),
      );
    }
    // The last script with the text left on the line (judged now too: nothing denied is typed), unless the
    // shell would wait for more (an open quote, heredoc or `$(`): then it is judged whole once completed.
    const rest = typed.rest;
    let pending = rest;
    const text = tail === null ? (rest ?? "") : rest === null || rest === "" ? tail : `${tail}\n${rest}`;
    if (text.trim() !== "") {
      const judgement = this.judge.judge(text, { interactive: true });
      if (judgement.incomplete && judgement.verdict !== "deny" && rest !== null) {
        pending = tail !== null && rest === "" ? `${text}\n` : text;
      } else {
        await this.#decide(check(text), judgement);
      }
    }
    this.#pending.delete(key);
    // Longer text is forgotten: its Enter then runs a line the server cannot see (ask).
    if (pending !== "") this.#pending.set(key, pending !== null && pending.length > MAX_PENDING_CHARS ? null : pending);
    if (this.#pending.size > MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value!);
  }

  /**
   * Variables for shells started later: judged as the assignment `NAME='VALUE'` would be typed (PROMPT_COMMAND
   * runs at each prompt, a prompt's `$(…)` as it is drawn; BASH_ENV, LD_PRELOAD … load code unseen: ask).
   */
  async checkEnvironment(env: Record<string, string> | undefined, pane: string | null, host: string): Promise<void> {
    if (this.judge === null || env === undefined) return;
    for (const [name, value] of Object.entries(env)) {
      if (!CODE_VARIABLES.test(name) || value === "") continue;
      await this.check({ command: `${name}='${value.replaceAll("'", "'\\''")}'`, pane, host });
    }
  }

  async #decide(check: CommandCheck, judgement: Judgement): Promise<void> {
    const scope = this.#calls.getStore();
    const decision = (outcome: string, answeredBy?: string) =>
      this.record({ ...check, tool: scope?.tool ?? "(none)", judgement, outcome, answeredBy });
    if (judgement.verdict === "allow") return await decision("allowed");
    if (judgement.verdict === "deny") {
      await decision("denied");
      throw new ToolError(
        "POLICY_DENIED",
        // The rule, never the command: errors do not echo what was typed or run (the audit keeps it).
        `The command policy denies this command: ${ruleText(judgement)} (${judgement.reason})`,
        "Do not retry it: run something the policy allows, or ask the person to change the policy file.",
      );
    }
    const key = check.command.trim();
    if (scope?.allowed.has(key)) return await decision("remembered");
    if (!scope?.ask) {
      await decision("unavailable");
      throw new ToolError(
        "POLICY_ASK_UNAVAILABLE",
        `The command policy asks a person before this command runs (${ruleText(judgement)}: ${judgement.reason}), ` +
          "and this client cannot ask (no MCP elicitation)",
        howToAllow(judgement),
      );
    }
    const { pane, host, command } = check;
    const asked = this.questions.add({ pane, host, command, tool: scope.tool, agent: scope.agent ?? null });
    const answer = await scope.ask({ ...check, judgement, tool: scope.tool }).finally(asked);
    if (answer.choice === "once" || answer.choice === "session") {
      if (answer.choice === "session") scope.allowed.add(key);
      return await decision(answer.choice, answer.by);
    }
    await decision(answer.choice === "refuse" ? "refused" : "cancelled", answer.by);
    throw new ToolError(
      "POLICY_DECLINED",
      `The person ${answer.choice === "refuse" ? "refused" : "did not answer"} the command (${ruleText(judgement)})`,
      "Do not retry it; ask the person what to do instead.",
    );
  }
}
