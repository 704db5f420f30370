import * as z from "zod";
import type { Tool } from "./sdk.ts";

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The JSON Schema a client sees for a tool's arguments, without what only costs context: the
 * `$schema` key on every tool, the ±2^53−1 bounds zod emits for `.int()`, string length bounds (ids are
 * short, payload limits are megabytes) and the regex patterns of ids and names (each argument's
 * description says what it takes; ~350 tokens over the `all` profile). A call past a bound or
 * outside a pattern gets an error naming the rule.
 * Validation is unchanged: every call is checked with the zod schema itself.
 */
export function inputJsonSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  trim(json);
  return json as Tool["inputSchema"];
}

function trim(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(trim);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.minimum === -SAFE) delete record.minimum;
  if (record.maximum === SAFE) delete record.maximum;
  if (record.type === "string") {
    delete record.minLength;
    delete record.maxLength;
    delete record.pattern;
  }
  for (const value of Object.values(record)) trim(value);
}
