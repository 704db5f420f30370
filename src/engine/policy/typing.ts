/**
 * What keys typed at a shell's prompt make it run. Literal text goes into the line; Enter (or a
 * newline in unbracketed text) runs the line; keys that recall or edit it (Up, C-r, Tab, C-y …)
 * leave a line the server cannot see, so its Enter is judged as unknown.
 */
export type Typed =
  | { readonly text: string; readonly bracketed?: boolean }
  | { readonly key: string };

/** The lines the typing runs, and the line it leaves unfinished. */
export interface TypedLines {
  /** Each line run, or null for a line changed by keys the server cannot follow. */
  readonly run: (string | null)[];
  /** Typed and not run yet (runs at a later Enter): "" for nothing, null for a line keys changed. */
  readonly rest: string | null;
}

const RUN_KEYS = new Set(["Enter", "C-m", "C-j", "KPEnter"]);
/** Keys that discard the line: the next line starts empty. */
const DISCARD_KEYS = new Set(["C-c", "C-u"]);
/** Keys that insert one character as it is. */
const CHARACTER_KEYS: Record<string, string> = { Space: " " };

/** `start`: what the line held before (as `rest` of the last typing into the pane). */
export function typedLines(start: string | null, parts: readonly Typed[]): TypedLines {
  const run: (string | null)[] = [];
  let line: string | null = start;
  for (const part of parts) {
    if ("text" in part) {
      if (part.bracketed) {
        line = line === null ? null : line + part.text;
        continue;
      }
      const pieces = part.text.split(/\r\n|\r|\n/);
      for (let i = 0; i < pieces.length; i++) {
        if (i > 0) {
          run.push(line);
          line = "";
        }
        if (line !== null) line += pieces[i];
      }
      continue;
    }
    const key = part.key;
    if (RUN_KEYS.has(key)) {
      run.push(line);
      line = "";
    } else if (DISCARD_KEYS.has(key)) {
      line = "";
    } else if (key.length === 1 && line !== null) {
      line += key;
    } else if (CHARACTER_KEYS[key] !== undefined && line !== null) {
      line += CHARACTER_KEYS[key];
    } else {
      line = null; // recall, completion, editing: the line is no longer what was typed
    }
  }
  return { run: run.filter((l) => l === null || l.trim() !== ""), rest: line };
}
