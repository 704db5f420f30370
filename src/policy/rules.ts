import { parseLine } from "./parser.ts";
import { type Item, type Shape, shapeOf } from "./shape.ts";
import { isKnown } from "./types.ts";
import { commandName } from "./words.ts";

/** One rule of a policy: shell words; `*` last matches any further words, elsewhere exactly one. */
export interface Rule {
  readonly text: string;
  /** The command's base name; null for a rule that starts with `*` (any command). */
  readonly name: string | null;
  readonly options: ReadonlySet<string>;
  /** Literal words, and null where the rule has `*`. */
  readonly words: readonly (string | null)[];
  /** Ends with `*`: further words (and further options) are fine. */
  readonly rest: boolean;
}

/** A rule that is not plain shell words; the message says which word. */
export class RuleError extends Error {}

export function parseRule(text: string): Rule {
  const parsed = parseLine(text, {}, false);
  if (parsed.unclear.length) throw new RuleError(`rule ${JSON.stringify(text)}: ${parsed.unclear[0]}`);
  const command = parsed.commands[0];
  if (parsed.commands.length !== 1 || command.assignments.length) {
    throw new RuleError(`rule ${JSON.stringify(text)} must be one command's words (no ; | && or VAR=)`);
  }
  const words = [...command.words];
  const rest = words.length > 1 && words[words.length - 1].raw === "*";
  if (rest) words.pop();
  for (const word of words) {
    if (!isKnown(word) && word.raw !== "*") {
      throw new RuleError(`rule ${JSON.stringify(text)}: ${word.raw} is not a literal word (quote it)`);
    }
  }
  const shape = shapeOf(words.slice(1).map((w) => w.raw === "*" ? { ...w, many: false } : w));
  return {
    text,
    name: words[0].raw === "*" ? null : commandName(words[0]),
    options: shape.options,
    words: shape.items.map((item) => "literal" in item ? item.literal : null),
    rest: rest || (words.length === 1 && words[0].raw === "*"),
  };
}

/** The command surely matches: every word it compares is known. */
export function matchesSurely(rule: Rule, name: string, shape: Shape): boolean {
  if (rule.name !== null && rule.name !== name) return false;
  for (const option of rule.options) if (!shape.options.has(option)) return false;
  if (!rule.rest && shape.options.size !== rule.options.size) return false;
  const items = shape.items;
  if (rule.rest ? items.length < rule.words.length : items.length !== rule.words.length) return false;
  return rule.words.every((word, i) => {
    const item = items[i];
    if ("literal" in item) return word === null || word === item.literal;
    return word === null && !item.many;
  });
}

/** The command might match, depending on what its run-time words become. */
export function matchesPossibly(rule: Rule, name: string, shape: Shape): boolean {
  if (rule.name !== null && rule.name !== name) return false;
  const unknowns = shape.items.some((item) => !("literal" in item));
  for (const option of rule.options) if (!shape.options.has(option) && !unknowns) return false;
  if (!rule.rest) { for (const option of shape.options) if (!rule.options.has(option)) return false; }
  return itemsMightMatch(rule, shape.items);
}

/** Wildcard matching both ways: a run-time word stands for none, one (or, unquoted, several) rule words. */
function itemsMightMatch(rule: Rule, items: readonly Item[]): boolean {
  const n = rule.words.length;
  let can = new Array<boolean>(n + 1).fill(false);
  can[0] = true;
  let done = rule.rest && can[n];
  for (const item of items) {
    const next = new Array<boolean>(n + 1).fill(false);
    let reached = false;
    for (let i = 0; i <= n; i++) {
      if ("literal" in item) {
        if (i > 0 && can[i - 1] && (rule.words[i - 1] === null || rule.words[i - 1] === item.literal)) next[i] = true;
      } else {
        reached ||= can[i];
        if (item.many ? reached : can[i] || (i > 0 && can[i - 1])) next[i] = true;
      }
    }
    can = next;
    done ||= rule.rest && can[n];
  }
  return done || can[n];
}
