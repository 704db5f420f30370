import { parseLine } from "./parser.ts";
import { matchesPossibly, matchesSurely, type Rule } from "./rules.ts";
import { shapeOf } from "./shape.ts";
import { type Judgement, type JudgeOptions, type SimpleCommand, STRICTNESS, type Verdict } from "./types.ts";
import { commandName } from "./words.ts";

/** A policy in force: rules by verdict, and the verdict for commands no rule names. */
export interface Policy {
  readonly default: Verdict;
  readonly deny: readonly Rule[];
  readonly ask: readonly Rule[];
  readonly allow: readonly Rule[];
  /** Where it was read from, for messages and doctor. */
  readonly source: string;
}

const SHOWN_CHARS = 200;

/**
 * Judges command lines by every simple command they would run; the strictest verdict wins, and
 * whatever cannot be judged exactly is `ask`. Pure, linear in the line, never throws.
 */
export class CommandJudge {
  constructor(readonly policy: Policy) {}

  judge(line: string, options: JudgeOptions = {}): Judgement {
    const parsed = parseLine(line, options);
    let worst: Judgement | null = null;
    const consider = (judgement: Judgement) => {
      if (worst === null || STRICTNESS[judgement.verdict] > STRICTNESS[worst.verdict]) worst = judgement;
    };
    for (const command of parsed.commands) {
      consider(this.judgeCommand(command));
      if (worst!.verdict === "deny") return worst!;
    }
    for (const reason of parsed.unclear) consider({ verdict: "ask", rule: null, command: shown(line), reason });
    const judged: Judgement = worst ??
      { verdict: "allow", rule: null, command: shown(line), reason: "runs no command" };
    return parsed.incomplete ? { ...judged, incomplete: true } : judged;
  }

  private judgeCommand(command: SimpleCommand): Judgement {
    const text = shown(command.words.map((w) => w.raw).join(" "));
    const name = commandName(command.words[0]);
    if (name === null) {
      return { verdict: "ask", rule: null, command: text, reason: "its command name is built at run time" };
    }
    const shape = shapeOf(command.words.slice(1));
    const { deny, ask, allow } = this.policy;
    const verdict = (verdict: Verdict, rule: Rule | "default", reason: string): Judgement => ({
      verdict,
      rule: rule === "default" ? "default" : rule.text,
      command: text,
      reason,
    });
    let rule = deny.find((r) => matchesSurely(r, name, shape));
    if (rule) return verdict("deny", rule, "a deny rule matches");
    rule = deny.find((r) => matchesPossibly(r, name, shape));
    if (rule) return verdict("ask", rule, "it may match a deny rule, depending on words built at run time");
    rule = ask.find((r) => matchesSurely(r, name, shape) || matchesPossibly(r, name, shape));
    if (rule) return verdict("ask", rule, "an ask rule matches");
    rule = allow.find((r) => matchesSurely(r, name, shape));
    if (rule) return verdict("allow", rule, "an allow rule matches");
    rule = allow.find((r) => matchesPossibly(r, name, shape));
    if (rule && this.policy.default !== "allow") {
      return verdict("ask", rule, "it may match an allow rule, depending on words built at run time");
    }
    return verdict(this.policy.default, "default", "no rule names it");
  }
}

function shown(text: string): string {
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}…`;
}
