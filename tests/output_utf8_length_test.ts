import assert from "node:assert/strict";
import { utf8Length } from "../src/engine/output/mod.ts";

// The output budget counts bytes without encoding; it must count what TextEncoder writes.
Deno.test("utf8Length counts what TextEncoder writes: every width, pairs, lone surrogates, seeded mixes", () => {
  const encoder = new TextEncoder();
  const fixed = [
    "",
    "abc",
    "é",
    "€",
    "😀",
    "a😀b",
    "\ud800",
    "\udc00",
    "\ud800x",
    "x\ud83d",
    "日本語",
    "\u07ff\u0800\uffff",
  ];
  let seed = 20261129;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const mixes = Array.from({ length: 3000 }, () => {
    const length = Math.floor(next() * 12);
    return Array.from({ length }, () => String.fromCharCode(Math.floor(next() * 0x10000))).join("");
  });
  for (const text of [...fixed, ...mixes]) {
    assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
});
