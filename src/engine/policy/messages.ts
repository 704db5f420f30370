import type { Judgement } from "../../policy/mod.ts";

/** The words of the policy's refusals: which rule, and how to get the command allowed. */
export function ruleText(judgement: Judgement): string {
  if (judgement.rule === "default") return `the policy's default (${judgement.verdict})`;
  if (judgement.rule === null) return "no rule (it cannot be judged exactly)";
  return `rule "${judgement.rule}"`;
}

export function howToAllow(judgement: Judgement): string {
  if (judgement.rule === null) {
    return "Send the command so it can be judged (its whole line as text, a literal command name, no eval of a " +
      "string built at run time), or use a client that supports elicitation.";
  }
  if (judgement.rule === "default") {
    return "Use a client that supports elicitation, or have the person add an allow rule for it to the policy file.";
  }
  return `Use a client that supports elicitation, or have the person move "${judgement.rule}" from ask to allow ` +
    "in the policy file (then restart tmuxwright).";
}

export function unseenLine(): Judgement {
  return {
    verdict: "ask",
    rule: null,
    command: "(a line changed by keys)",
    reason: "keys that recall or edit the line make a line the server cannot see",
  };
}
