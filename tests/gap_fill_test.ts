import assert from "node:assert/strict";
import { advance, contextLines, gapText, locateStart } from "../src/engine/output/gap_fill.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("advance follows line-oriented output: CR LF, wraps, escapes that move nothing", () => {
  assert.deepEqual(advance({ line: 5, x: 2 }, bytes("ab\r\ncd\r\n"), 80), { line: 7, x: 0 });
  assert.deepEqual(advance({ line: 0, x: 0 }, bytes("\x1b[31mred\x1b[0m \x1b]0;title\x07x"), 80), { line: 0, x: 5 });
  assert.deepEqual(advance({ line: 0, x: 0 }, bytes("abcdefghij"), 4), { line: 2, x: 2 });
  assert.deepEqual(advance({ line: 0, x: 3 }, bytes("é\rz"), 80), { line: 0, x: 1 });
});

Deno.test("the log's end is found in the grid, also after tmux trimmed the history", () => {
  const grid = Array.from({ length: 50 }, (_, i) => `n=${i + 101}`); // n=1..100 were trimmed away
  const context = contextLines("n=118\r\nn=119\r\nn=120\r\nn=121\r\n");
  assert.deepEqual(context, ["n=119", "n=120", "n=121"]);
  // Computed from the mark as if nothing was trimmed: line 121; the rows above line 21 say where it is now.
  assert.deepEqual(locateStart(grid, { line: 121, x: 0 }, context, true), { line: 21, x: 0 });
  assert.equal(gapText(grid, { line: 21, x: 0 }, { line: 23, x: 5 }), "n=122\r\nn=123\r\nn=124");
  // Untrimmed: the computed start stands when its rows fit.
  assert.deepEqual(locateStart(grid, { line: 21, x: 0 }, context, false), { line: 21, x: 0 });
  // Lines that are no longer there, or nothing to go by while trimming was possible: the gap cannot be placed.
  assert.equal(locateStart(grid, { line: 121, x: 0 }, ["n=5", "n=6"], true), null);
  assert.equal(locateStart(grid, { line: 3, x: 0 }, [], true), null);
  assert.deepEqual(locateStart(grid, { line: 3, x: 0 }, [], false), { line: 3, x: 0 });
});
