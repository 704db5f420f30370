/**
 * tmux key names accepted by send_keys. Inputs are a closed set: a named key or a single
 * printable ASCII character, optionally with `C-`, `M-`, `S-` modifiers. `^X` means `C-x`.
 */
const NAMED_KEYS = [
  "Enter",
  "Escape",
  "Tab",
  "BTab",
  "Space",
  "BSpace",
  "Up",
  "Down",
  "Left",
  "Right",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "PgUp",
  "PgDn",
  "PPage",
  "NPage",
  "Insert",
  "Delete",
  "IC",
  "DC",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  "KP0",
  "KP1",
  "KP2",
  "KP3",
  "KP4",
  "KP5",
  "KP6",
  "KP7",
  "KP8",
  "KP9",
  "KPEnter",
  "KP/",
  "KP*",
  "KP-",
  "KP+",
  "KP.",
] as const;

const NAMED = new Map<string, string>(NAMED_KEYS.map((k) => [k.toLowerCase(), k]));
const MODIFIED = /^((?:[CMS]-)+)(.+)$/;

export const KEY_FORMS_HELP =
  "valid keys: Enter, Escape, Tab, BTab, Space, BSpace, Up, Down, Left, Right, Home, End, PageUp, PageDown, " +
  "Insert, Delete, F1-F12, KP0-KP9, a single printable character, with optional C- (Ctrl), M- (Alt), S- (Shift) " +
  "prefixes such as C-c or M-Left; ^C is read as C-c";

/** Returns the canonical tmux key name, or null when `input` is not a valid key. */
export function normalizeKey(input: string): string | null {
  if (/^\^[A-Za-z@\[\\\]^_?]$/.test(input)) return `C-${input[1].toLowerCase()}`;
  const modified = MODIFIED.exec(input);
  const prefix = modified ? modified[1] : "";
  const base = modified ? modified[2] : input;
  if (new Set(prefix.match(/[CMS]-/g) ?? []).size !== (prefix.match(/[CMS]-/g) ?? []).length) return null;
  const named = NAMED.get(base.toLowerCase());
  if (named) return prefix + named;
  if (base.length === 1 && base >= "!" && base <= "~") {
    return prefix + (prefix.includes("C-") ? base.toLowerCase() : base);
  }
  return null;
}
