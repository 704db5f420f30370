import assert from "node:assert/strict";
import { ControlParser, type Reply } from "../src/tmux/control_parser.ts";

// Recorded shape of tmux 3.3 control-mode output: an unsolicited flags=0 block, a reply whose
// content looks like protocol lines (block content is not escaped), an error reply, notifications.
const STREAM = [
  "%begin 1700000000 10 0",
  "%end 1700000000 10 0",
  "%session-changed $0 tmuxwright-1",
  "%begin 1700000001 11 1",
  "line one",
  "%end 1700000001 99 1",
  "%output %9 fake",
  "",
  "ünïcödé ✓",
  "%end 1700000001 11 1",
  "%output %3 a\\015\\012b\\134",
  "%begin 1700000002 12 1",
  "can't find pane: %99",
  "%error 1700000002 12 1",
  "%begin 1700000003 13 1",
  "%end 1700000003 13 1",
  "%exit",
  "",
].join("\n");

function parse(chunkSize: number) {
  const replies: Reply[] = [];
  const notes: string[] = [];
  const output: [string, string][] = [];
  const parser = new ControlParser({
    reply: (r) => replies.push(r),
    notification: (name, args) => notes.push(`${name} ${args}`.trim()),
    output: (pane, bytes) => output.push([pane, new TextDecoder().decode(bytes)]),
  });
  const bytes = new TextEncoder().encode(STREAM);
  for (let i = 0; i < bytes.length; i += chunkSize) parser.push(bytes.slice(i, i + chunkSize));
  return { replies, notes, output };
}

Deno.test("ControlParser matches replies by guard whatever the chunking, and never reads block content as protocol", () => {
  for (const size of [1, 2, 3, 7, 16, 64, 4096]) {
    const { replies, notes, output } = parse(size);
    assert.deepEqual(replies, [
      { ok: true, lines: ["line one", "%end 1700000001 99 1", "%output %9 fake", "", "ünïcödé ✓"] },
      { ok: false, lines: ["can't find pane: %99"] },
      { ok: true, lines: [] },
    ], `chunk size ${size}`);
    assert.deepEqual(notes, ["%session-changed $0 tmuxwright-1", "%exit"]);
    assert.deepEqual(output, [["%3", "a\r\nb\\"]]);
  }
});
