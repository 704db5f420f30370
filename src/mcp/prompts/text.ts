/** Small helpers that keep prompt texts readable. */

/** Numbered steps; `false`/`undefined`/"" entries are left out, so steps can depend on exposed tools. */
export function steps(items: (string | false | null | undefined)[]): string {
  return items.filter((item): item is string => typeof item === "string" && item !== "")
    .map((item, i) => `${i + 1}. ${item}`).join("\n");
}

/** A command shown as a code block, whatever backticks it contains. */
export function fence(command: string): string {
  const longest = Math.max(2, ...[...command.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = "`".repeat(longest + 1);
  return `${bar}\n${command}\n${bar}`;
}

export function number(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** A directory as a POSIX shell word. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function paragraphs(...parts: (string | false | null | undefined)[]): string {
  return parts.filter((part): part is string => typeof part === "string" && part !== "").join("\n\n");
}
