/**
 * watch_pane triggers: parsing and the output-side detectors. State-side triggers (exit, shell,
 * input) are decided from process facts and tmux in watch.ts.
 */

import type { LineMatch, Pattern, PatternOptions } from "../../patterns/mod.ts";
import type { ChunkTest } from "./chunk_match.ts";

export type Trigger =
  | { kind: "exit" | "shell" | "input" | "error" | "bell" | "change"; name: string }
  | { kind: "idle"; name: string; ms: number }
  | { kind: "pattern"; name: string; re: ChunkTest };

/** What a trigger tests a line with: a compiled pattern (linear time) or the fixed error regex. */
export interface LineTest {
  test(line: string): boolean;
}

/** Compiles a caller's pattern (the App's PatternCompiler); rejects with a RangeError when invalid. */
export type CompilePattern = (source: string, options: PatternOptions) => Promise<Pattern>;

export const DEFAULT_TRIGGERS = ["exit", "shell", "input", "error"] as const;

/**
 * Error-looking output: Python tracebacks, `error:`/`Error:`/`ERROR` prefixes (compilers, npm,
 * git's `fatal:`), exception class names (`TypeError`, `NullPointerException`), Go/Rust panics,
 * segfaults and core dumps.
 */
export const ERROR_RE =
  /Traceback \(most recent call last\)|(?:^|[\s:\]])(?:error|ERROR|Error)(?:\[[\w-]+\])?:|^(?:fatal|FATAL):|\bFATAL\b|\b[A-Z]\w*(?:Error|Exception)\b(?::|$)|^panic:|^thread '.*' panicked|Segmentation fault|core dumped|npm ERR!|Unhandled (?:exception|rejection)/;

// The same regex for many lines at once: `^`/`$` at each line's ends. No branch matches across a
// newline except `[\s:\]]` before `error:` at a line's start, where `^` matches too.
const ERROR_LINES = new RegExp(ERROR_RE.source, "gm");
// Every match of ERROR_RE contains one of these (a native search each rules out a whole chunk).
const ERROR_NEEDLES = [
  "Traceback",
  "rror", // error, Error, TypeError
  "RROR",
  "atal:", // fatal:
  "ATAL", // FATAL
  "xception",
  "panic",
  "Segmentation fault",
  "core dumped",
  "npm ERR!",
  "Unhandled ",
];

/** The error regex as a chunk test: the line holding the first match (its last character is on it). */
export const ERROR_TEST: ChunkTest = {
  mayMatchIn(text: string): boolean {
    return ERROR_NEEDLES.some((needle) => text.includes(needle));
  },
  firstMatchingLine(chunk: string): LineMatch | null {
    ERROR_LINES.lastIndex = 0;
    const found = ERROR_LINES.exec(chunk);
    if (!found) return null;
    const last = found.index + found[0].length - 1;
    const start = chunk.lastIndexOf("\n", last) + 1;
    const end = chunk.indexOf("\n", last);
    const match = found.index < start ? found[0].slice(start - found.index) : found[0];
    return { line: chunk.slice(start, end < 0 ? chunk.length : end), match, index: start };
  },
};

const SIMPLE = new Set(["exit", "shell", "input", "error", "bell", "change"]);

/** Parses trigger strings; rejects with a RangeError with the accepted forms on a bad one. */
export async function parseTriggers(specs: readonly string[], compile: CompilePattern): Promise<Trigger[]> {
  const out: Trigger[] = [];
  for (const spec of specs) {
    if (SIMPLE.has(spec)) {
      out.push({ kind: spec as "exit", name: spec });
      continue;
    }
    const idle = /^idle:(\d+(?:\.\d+)?)$/.exec(spec);
    if (idle) {
      const seconds = Number(idle[1]);
      if (seconds <= 0 || seconds > 3600) {
        throw new RangeError(`Invalid trigger "${spec}": idle seconds must be 0-3600`);
      }
      out.push({ kind: "idle", name: spec, ms: seconds * 1000 });
      continue;
    }
    if (spec.startsWith("pattern:") && spec.length > 8) {
      out.push({ kind: "pattern", name: spec, re: await compile(spec.slice(8), { what: "pattern: trigger" }) });
      continue;
    }
    throw new RangeError(
      `Invalid trigger ${
        JSON.stringify(spec)
      }: use exit, shell, input, error, bell, change, idle:SECONDS, pattern:REGEX`,
    );
  }
  return out;
}

/**
 * Finds BEL bytes that ring the bell: a BEL that ends an OSC/DCS string (a title update) does
 * not. Keeps its state across chunks.
 */
export class BellDetector {
  #state: "text" | "esc" | "string" | "stringEsc" = "text";

  /** True when `bytes` contain a bell. */
  push(bytes: Uint8Array): boolean {
    // Most chunks hold neither BEL nor ESC: two native searches instead of a loop per byte.
    if (this.#state === "text" && bytes.indexOf(0x07) < 0 && bytes.indexOf(0x1b) < 0) return false;
    let rang = false;
    for (const b of bytes) {
      switch (this.#state) {
        case "text":
          if (b === 0x1b) this.#state = "esc";
          else if (b === 0x07) rang = true;
          break;
        case "esc":
          // ESC ] (OSC), ESC P (DCS), ESC _ (APC), ESC ^ (PM), ESC X (SOS) open a string.
          this.#state = b === 0x5d || b === 0x50 || b === 0x5f || b === 0x5e || b === 0x58 ? "string" : "text";
          break;
        case "string":
          if (b === 0x07) this.#state = "text";
          else if (b === 0x1b) this.#state = "stringEsc";
          break;
        case "stringEsc":
          this.#state = b === 0x5c ? "text" : b === 0x1b ? "stringEsc" : "string";
          break;
      }
    }
    return rang;
  }
}
