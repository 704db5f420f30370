import assert from "node:assert/strict";
import { findRequestId, LineFramer } from "../src/transports/line_framer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("LineFramer: lines split across chunks, CRLF, several lines in one chunk", () => {
  const framer = new LineFramer(100);
  assert.deepEqual(framer.push(bytes('{"a":')), []);
  assert.deepEqual(framer.push(bytes('1}\r\n{"b":2}\n{"c"')), [
    { kind: "line", text: '{"a":1}' },
    { kind: "line", text: '{"b":2}' },
  ]);
  assert.deepEqual(framer.push(bytes(":3}\n")), [{ kind: "line", text: '{"c":3}' }]);
  // A UTF-8 character split across chunks decodes whole.
  const euro = bytes("€\n");
  assert.deepEqual([...framer.push(euro.subarray(0, 1)), ...framer.push(euro.subarray(1))], [
    { kind: "line", text: "€" },
  ]);
});

Deno.test("LineFramer: a line over the limit is skipped, reported by size with its edges, and framing goes on", () => {
  const framer = new LineFramer(1000);
  const long = `{"method":"x","params":{"t":"${"y".repeat(5000)}"},"jsonrpc":"2.0","id":42}`;
  const out = [];
  for (let i = 0; i < long.length; i += 333) out.push(...framer.push(bytes(long.slice(i, i + 333))));
  out.push(...framer.push(bytes('\n{"ok":1}\n')));
  assert.equal(out.length, 2);
  const [skipped, next] = out;
  assert.equal(skipped.kind, "oversize");
  if (skipped.kind !== "oversize") return;
  assert.equal(skipped.bytes, long.length);
  assert.ok(skipped.head.startsWith('{"method":"x"') && skipped.tail.endsWith('"id":42}'));
  assert.equal(findRequestId(skipped.head, skipped.tail), 42);
  assert.deepEqual(next, { kind: "line", text: '{"ok":1}' });
});

Deno.test("findRequestId: first or last key of the object, never a nested id", () => {
  assert.equal(findRequestId('{"jsonrpc":"2.0","id":"abc","method":"m","params":{"t":"', ""), "abc");
  assert.equal(findRequestId('{"id":7,"jsonrpc"', ""), 7);
  assert.equal(findRequestId('{"method":"m","params":{"id":5,"t":"', 'xx"}}'), null);
  assert.equal(findRequestId('{"method":"m"', '"t":"x","id":9}}'), null);
  assert.equal(findRequestId('{"method":"m"', '"t":"x"},"id":"q\\"1"}'), 'q"1');
});
