import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

interface Match {
  pane_id: string;
  name: string | null;
  lines: { line: number; text: string }[];
}
interface Result {
  panes_searched: number;
  panes_matched: number;
  matches: Match[];
  truncated: boolean;
  offset: number;
  next_offset?: number;
}

Deno.test("search_panes finds the failing pane among 20, in scrollback and across a wrapped line", async () => {
  await using server = await TestServer.start();
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    let command = `echo 'worker ${i}: ok'`;
    // Pane 7: the failure scrolled far above the visible screen.
    if (i === 7) command = "echo 'FAIL: test_upload (scrollback)'; seq 1 300";
    // Pane 13: the failure straddles the 200-column edge, so the terminal wraps it.
    if (i === 13) command = "seq 1 60; printf '%0195d' 0; echo 'FAIL: test_upload (wrapped)'";
    if (i === 16) command = "echo 'PASS: test_upload'";
    const pane = await server.call<{ pane_id: string }>("create_pane", { name: `w${i}`, command });
    ids.push(pane.pane_id);
  }
  await until(
    () => server.call<{ panes: { status: string }[] }>("list_panes", { owned_only: true }),
    (r) => r.panes.length === 20 && r.panes.every((p) => p.status === "exited"),
    20_000,
  );

  const screenOnly = await server.call<Result>("search_panes", { pattern: "FAIL: test_upload" });
  assertEquals(screenOnly.matches.map((m) => m.name), ["w13"]);
  assertEquals(screenOnly.panes_searched, 20);
  assert(screenOnly.matches[0].lines[0].text.endsWith("FAIL: test_upload (wrapped)"));

  const deep = await server.call<Result>("search_panes", { pattern: "FAIL: test_upload", scrollback: 2000 });
  assertEquals(deep.matches.map((m) => m.name).sort(), ["w13", "w7"]);
  const seven = deep.matches.find((m) => m.name === "w7")!;
  assertEquals(seven.pane_id, ids[7]);
  assertEquals(seven.lines.map((l) => l.text), ["FAIL: test_upload (scrollback)"]);

  const regex = await server.call<Result>("search_panes", {
    pattern: "^(PASS|FAIL): test_\\w+",
    regex: true,
    scrollback: 2000,
  });
  assertEquals(regex.matches.map((m) => m.name).sort(), ["w16", "w7"]); // w13's line starts with zeros

  const page1 = await server.call<Result>("search_panes", { pattern: "worker", limit: 10, scrollback: 100 });
  assertEquals(page1.panes_matched, 17);
  assertEquals(page1.matches.length, 10);
  assertEquals(page1.truncated, true);
  const page2 = await server.call<Result>("search_panes", {
    pattern: "worker",
    limit: 10,
    scrollback: 100,
    offset: page1.next_offset,
  });
  assertEquals(page2.matches.length, 7);
  assertEquals(page2.truncated, false);
  const names = new Set([...page1.matches, ...page2.matches].map((m) => m.name));
  assertEquals(names.size, 17);
});

Deno.test("search_panes: nested quantifiers run in linear time; what the engine cannot compile is refused", async () => {
  await using server = await TestServer.start();
  assertEquals((await server.call<Result>("search_panes", { pattern: "(a+)+$", regex: true })).matches, []);
  assertEquals((await server.call<Result>("search_panes", { pattern: "(a|aa)*b", regex: true })).matches, []);
  assert((await server.callError("search_panes", { pattern: "(\\w)\\1", regex: true })).includes("backreference"));
  assert((await server.callError("search_panes", { pattern: "([a-", regex: true })).includes("Invalid regex"));
  // Literal mode takes the same text as plain characters.
  const literal = await server.call<Result>("search_panes", { pattern: "(a+)+$" });
  assertEquals(literal.matches, []);
});

Deno.test("search_panes with no pane to search answers, and the tmux connection stays up for the next call", async () => {
  await using server = await TestServer.start();
  const empty = await server.call<Result>("search_panes", { pattern: "anything" });
  assertEquals([empty.panes_searched, empty.matches], [0, []]);
  // Nothing may be written for an empty batch: an empty line detaches the control client.
  for (let i = 0; i < 3; i++) assertEquals((await server.call<{ panes: unknown[] }>("list_panes")).panes, []);
  const log = server.stderr.join("");
  assert(!/control connection (lost|re-established)/.test(log), log);
});
