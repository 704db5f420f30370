/** Argument names whose values are payloads: what the agent types or runs, possibly secrets. */
export const PAYLOAD_ARGS = new Set(["keys", "text", "command", "input"]);
/** Arguments that map names to payload values (`env`). */
export const PAYLOAD_MAPS = new Set(["env"]);
/** Longest error text an agent gets back; longer messages are cut and say so. */
export const MAX_ERROR_CHARS = 2000;
// Short values (a key name like "q") are too common in ordinary text to hide meaningfully.
const MIN_SECRET_CHARS = 4;

/** Every payload string in a call's arguments, longest first. */
export function payloadValues(args: Record<string, unknown>): string[] {
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.length >= MIN_SECRET_CHARS) found.push(value);
    else if (Array.isArray(value)) value.forEach(add);
  };
  for (const [key, value] of Object.entries(args ?? {})) {
    if (PAYLOAD_ARGS.has(key)) add(value);
    else if (PAYLOAD_MAPS.has(key) && value && typeof value === "object") {
      Object.entries(value).forEach(([name, item]) => [name, item].forEach(add)); // names too: validation echoes them
    }
  }
  return found.sort((a, b) => b.length - a.length);
}

/**
 * Error text safe to return: payload values (and each of their lines, since tmux reports one
 * line at a time) replaced by `[redacted]`, control bytes escaped, and the length bounded.
 */
export function scrubErrorText(text: string, args: Record<string, unknown>): string {
  let out = text;
  for (const value of payloadValues(args)) {
    const pieces = [value, ...value.split(/\r?\n/).filter((line) => line.trim().length >= MIN_SECRET_CHARS)];
    for (const piece of pieces) out = out.replaceAll(piece, "[redacted]");
  }
  // deno-lint-ignore no-control-regex
  out = out.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
  if (out.length > MAX_ERROR_CHARS) out = `${out.slice(0, MAX_ERROR_CHARS)}… (cut at ${MAX_ERROR_CHARS} characters)`;
  return out;
}
