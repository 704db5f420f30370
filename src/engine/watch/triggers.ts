/**
 * watch_pane triggers: parsing and the output-side detectors. State-side triggers (exit, shell,
 * input) are decided from /proc and tmux in wait_watch.ts.
 */

import type { Pattern, PatternOptions } from "../../patterns/mod.ts";

export type Trigger =
  | { kind: "exit" | "shell" | "input" | "error" | "bell" | "change"; name: string }
  | { kind: "idle"; name: string; ms: number }
  | { kind: "pattern"; name: string; re: LineTest };

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
