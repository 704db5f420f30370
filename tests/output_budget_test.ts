import assert from "node:assert/strict";
import { fitLines, type Omitted, outputBudget, rawLines } from "../src/engine/output/budget.ts";
import { renderTerminalText } from "../src/engine/output/render.ts";

/** The budget module alone: head and tail kept, one exact marker, raw ranges that add up. */
const marker = (o: Omitted) => `[${o.lines} lines, ${o.bytes} bytes omitted @${o.fromByte}-${o.toByte}]`;
const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("output that fits is returned whole; the default budget is 8 KiB and 200 lines", () => {
  assert.deepEqual(outputBudget(), { bytes: 8192, lines: 200 });
  const lines = rawLines(encode("a\r\nb\r\n"), 100, renderTerminalText);
  assert.deepEqual(lines.map((l) => [l.text, l.from, l.to, l.exact]), [["a", 100, 103, true], ["b", 103, 106, true]]);
  const fitted = fitLines(lines, outputBudget(), marker);
  assert.deepEqual([fitted.text, fitted.truncated, fitted.omitted], ["a\nb", false, null]);
});

Deno.test("3,000 lines keep their head and tail; the omitted raw range is exactly the lines left out", () => {
  const raw = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\r\n`).join("");
  const bytes = encode(raw);
  const fitted = fitLines(rawLines(bytes, 5000, renderTerminalText), outputBudget(), marker);
  const shown = fitted.text.split("\n");
  assert.equal(shown.length, 201);
  assert.equal(shown[0], "line 1");
  assert.equal(shown.at(-1), "line 3000");
  const o = fitted.omitted!;
  assert.equal(o.lines, 2800);
  assert.equal(shown[100], marker(o));
  // The omitted bytes are exactly lines 101..2900 of the raw stream.
  const omittedRaw = new TextDecoder().decode(bytes.subarray(o.fromByte! - 5000, o.toByte! - 5000));
  assert.ok(omittedRaw.startsWith("line 101\r\n") && omittedRaw.endsWith("line 2900\r\n"), omittedRaw.slice(0, 30));
  assert.equal(o.bytes, o.toByte! - o.fromByte!);
  assert.equal(fitted.totalLines, 3000);
  // A smaller budget keeps less; a larger one keeps it all.
  assert.ok(fitLines(rawLines(bytes, 0, renderTerminalText), outputBudget(1024), marker).text.length < 1100);
  assert.equal(fitLines(rawLines(bytes, 0, renderTerminalText), outputBudget(200_000), marker).truncated, false);
});

Deno.test("one enormous line shows its start and its end around the marker", () => {
  const line = "x".repeat(50_000) + "END";
  const fitted = fitLines(rawLines(encode(line + "\n"), 0, renderTerminalText), outputBudget(), marker);
  assert.ok(fitted.truncated && fitted.text.length <= 8192, `${fitted.text.length}`);
  assert.ok(fitted.text.startsWith("xxxx") && fitted.text.endsWith("xEND"));
  const o = fitted.omitted!;
  assert.equal(o.lines, 1);
  assert.equal(o.bytes, o.toByte! - o.fromByte!);
  assert.equal(fitted.text.length - marker(o).length - 2 + o.bytes, line.length);
});

Deno.test("lines without raw ranges (a screen) say how many lines and bytes were left out", () => {
  const lines = Array.from({ length: 500 }, (_, i) => ({ text: `row ${i}` }));
  const fitted = fitLines(lines, outputBudget(2048), (o) => `[${o.lines} lines, ${o.bytes} bytes omitted]`);
  assert.equal(fitted.omitted!.fromByte, undefined);
  const shown = fitted.text.split("\n");
  assert.equal(shown.length - 1 + fitted.omitted!.lines, 500);
});
