/**
 * Declared field lists become one `-F` template and a strict parser: every row must have
 * exactly the declared number of fields, or parsing fails loudly instead of misreading.
 */
export const FIELD_SEPARATOR = "\x1f"; // unit separator: never in ids, names we store, or titles

export type FieldList<K extends string> = Readonly<Record<K, string>>;

export function formatTemplate<K extends string>(fields: FieldList<K>): string {
  return Object.values<string>(fields).map((f) => `#{${f}}`).join(FIELD_SEPARATOR);
}

export function parseRows<K extends string>(fields: FieldList<K>, lines: readonly string[]): Record<K, string>[] {
  const keys = Object.keys(fields) as K[];
  return lines.filter((line) => line.length > 0).map((line) => {
    const values = line.split(FIELD_SEPARATOR);
    if (values.length !== keys.length) {
      throw new Error(
        `unexpected tmux output: expected ${keys.length} fields, got ${values.length}: ${JSON.stringify(line)}`,
      );
    }
    const row = {} as Record<K, string>;
    keys.forEach((key, i) => row[key] = values[i]);
    return row;
  });
}
