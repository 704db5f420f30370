import { type Policy } from "./judge.ts";
import { parseRule, type Rule, RuleError } from "./rules.ts";
import type { Verdict } from "./types.ts";

/** The policy file cannot be used; the message is one line naming the file and what is wrong. */
export class PolicyFileError extends Error {}

const VERDICTS: readonly Verdict[] = ["allow", "ask", "deny"];
const KEYS = new Set(["default", "deny", "ask", "allow", "comment"]);

/** Reads and checks a policy file (JSON: `default`, and `deny` / `ask` / `allow` lists of rules), at start-up. */
export function loadPolicy(path: string): Policy {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.NotCapable
      ? `the Deno permissions do not allow reading it (add --allow-read=${path} to the deno run flags)`
      : error instanceof Deno.errors.PermissionDenied
      ? "not readable (permission denied)"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : `cannot be read (${error instanceof Error ? error.message : String(error)})`;
    throw new PolicyFileError(`policy file ${path}: ${reason}`);
  }
  return parsePolicy(text, path);
}

export function parsePolicy(text: string, source: string): Policy {
  const fail = (what: string) => new PolicyFileError(`policy file ${source}: ${what}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw fail("must be a JSON object");
  const object = value as Record<string, unknown>;
  const unknown = Object.keys(object).filter((key) => !KEYS.has(key));
  if (unknown.length) throw fail(`unknown key ${JSON.stringify(unknown[0])} (keys: default, deny, ask, allow)`);
  if (!VERDICTS.includes(object.default as Verdict)) {
    throw fail(`"default" must be "allow", "ask" or "deny" (found ${JSON.stringify(object.default ?? null)})`);
  }
  const rules = (key: "deny" | "ask" | "allow"): Rule[] => {
    const list = object[key] ?? [];
    if (!Array.isArray(list)) throw fail(`"${key}" must be a list of rules (strings)`);
    return list.map((rule) => {
      if (typeof rule !== "string" || rule.trim() === "") {
        throw fail(`"${key}" holds ${JSON.stringify(rule)}, not a rule`);
      }
      try {
        return parseRule(rule);
      } catch (error) {
        throw fail(error instanceof RuleError ? error.message : String(error));
      }
    });
  };
  return {
    default: object.default as Verdict,
    deny: rules("deny"),
    ask: rules("ask"),
    allow: rules("allow"),
    source,
  };
}

/** The policy in one line, for doctor and start-up logs. */
export function describePolicy(policy: Policy): string {
  const list = (rules: readonly Rule[]) => rules.length ? rules.map((r) => JSON.stringify(r.text)).join(", ") : "none";
  return `${policy.source}: default ${policy.default}; deny ${list(policy.deny)}; ask ${list(policy.ask)}; allow ${
    list(policy.allow)
  }`;
}
