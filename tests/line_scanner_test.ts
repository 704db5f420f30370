import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { chunkLines, LineScanner } from "../src/engine/watch/line_scanner.ts";
import { capLines, firstMatch } from "../src/engine/watch/chunk_match.ts";
import { ERROR_RE, ERROR_TEST } from "../src/engine/watch/triggers.ts";
import { renderTerminalText } from "../src/engine/output/mod.ts";
import { compilePattern } from "../src/patterns/mod.ts";

/** The rendering every line must get: split at "\n", each line rendered alone, erased lines left out. */
function reference(stream: string): string[] {
  const rows = stream.split("\n");
  rows.pop(); // the unfinished line
  const out: string[] = [];
  for (const raw of rows) {
    const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // deno-lint-ignore no-control-regex
    const line = /[\x00-\x1f\x7f]/.test(body) ? renderTerminalText(body) : body.trimEnd();
    if (line === "" && stripVTControlCharacters(raw).trim() !== "") continue;
    out.push(line);
  }
  return out;
}

const PIECES = [
  "y",
  "plain text",
  " ",
  "  ",
  "\t",
  "\r\n",
  "\n",
  "\r",
  "\b",
  "\x07",
  "\x1b[32m",
  "\x1b[0m",
  "\x1b[K",
  "\x1b[2G",
  "\x1b]0;title\x07",
  "\x1b]2;t\x1b\\",
  "\x1b[?25l",
  "é",
  "日本",
  "error: boom",
  "TypeError",
  "Dabc-42",
  "\x0e",
  "\x7f",
  "NullPointerException: x",
  "fatal: no",
];
// Mostly plain text, the way floods look: a control piece now and then.
const PLAIN_PIECES = ["y", "abc", "plain text", "\r\n", "\r\n", "\n", "Dabc-7", "Traceback (most recent call last)"];

function randomStream(seed: number, pieces: number): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const from = seed % 2 === 0 ? PIECES : PLAIN_PIECES;
  let s = "";
  for (let i = 0; i < pieces; i++) {
    s += next() < 0.05 ? PIECES[Math.floor(next() * PIECES.length)] : from[Math.floor(next() * from.length)];
  }
  return s + "\n";
}

/** Feeds the stream's bytes in random cuts (UTF-8 characters split too); collects every line. */
function scan(bytes: Uint8Array, seed: number): { lines: string[]; rawTexts: string[]; scanner: LineScanner } {
  const scanner = new LineScanner();
  const lines: string[] = [];
  const rawTexts: string[] = [];
  let x = seed;
  for (let at = 0; at < bytes.length;) {
    x = (x * 69069 + 1) % 4294967296;
    const cut = Math.min(bytes.length, at + 1 + (x % 40));
    const chunk = scanner.push(bytes.subarray(at, cut));
    lines.push(...chunkLines(chunk));
    rawTexts.push(chunk.rawText);
    at = cut;
  }
  return { lines, rawTexts, scanner };
}

Deno.test("LineScanner renders every line as the terminal renderer renders it alone, whatever the chunking", () => {
  for (let seed = 1; seed <= 600; seed++) {
    const stream = randomStream(seed, 60);
    const { lines } = scan(new TextEncoder().encode(stream), seed);
    assertEquals(lines, reference(stream), `seed ${seed}: ${JSON.stringify(stream)}`);
  }
});

Deno.test("firstMatch finds the first line a pattern matches alone, and a raw text that cannot match is ruled out", async () => {
  const patterns = [
    await compilePattern("Dabc-\\d+$", { regex: true }),
    await compilePattern("abc", { regex: false }),
    await compilePattern("^plain text$", { regex: true }),
    await compilePattern("(?i)TEXT\\s+y", { regex: true }),
    await compilePattern("y$"),
  ];
  for (let seed = 1; seed <= 300; seed++) {
    const stream = randomStream(seed, 40);
    const { lines, rawTexts } = scan(new TextEncoder().encode(stream), seed);
    for (const pattern of patterns) {
      const expected = lines.find((line) => pattern.match(line) !== null) ?? null;
      let found: string | null = null;
      const scanner = new LineScanner();
      for (const bytes of chunksOf(stream, seed)) {
        const hit = await firstMatch([pattern], scanner.push(bytes));
        if (hit) {
          found = hit.line;
          break;
        }
      }
      assertEquals(found, expected, `seed ${seed}, ${pattern.source}`);
    }
    const errorLine = lines.find((line) => ERROR_RE.test(line)) ?? null;
    const all = rawTexts.join("");
    if (errorLine !== null) assertEquals(ERROR_TEST.mayMatchIn(all), true, `seed ${seed}`);
  }
});

function* chunksOf(stream: string, seed: number): Generator<Uint8Array> {
  const bytes = new TextEncoder().encode(stream);
  let x = seed;
  for (let at = 0; at < bytes.length;) {
    x = (x * 69069 + 1) % 4294967296;
    const cut = Math.min(bytes.length, at + 1 + (x % 40));
    yield bytes.subarray(at, cut);
    at = cut;
  }
}

Deno.test("capLines cuts only lines longer than the limit, keeping every line break", () => {
  const long = "x".repeat(10);
  assertEquals(capLines(`a\n${long}\nb\n${long}`, 4), "a\nxxxx\nb\nxxxx");
  assertEquals(capLines("ab\ncd\n", 4), "ab\ncd\n");
  assertEquals(capLines(`${"y\n".repeat(50)}${long}\n`, 4), `${"y\n".repeat(50)}xxxx\n`);
});

Deno.test("LineScanner reports the newest lines from a bounded tail, and says when older ones were dropped", () => {
  const scanner = new LineScanner({ keepLines: 3, keepChars: 1000 });
  scanner.push(new TextEncoder().encode("one\ntwo\r\n\x1b[31mthree\x1b[0m\nfour\nfive"));
  assertEquals(scanner.text(), { text: "two\nthree\nfour\nfive", truncated: true });
  assertEquals(scanner.lastLines(2), ["four", "five"]);
  const skipping = new LineScanner({ skipFirstLine: true });
  skipping.push(new TextEncoder().encode("echo of a typed com"));
  skipping.push(new TextEncoder().encode("mand\nout\n"));
  assertEquals(skipping.text(), { text: "out", truncated: false });
});
