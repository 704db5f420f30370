import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

type Turn = { output: string; prompt_seen: boolean; elapsed_ms: number; waiting_for_more?: boolean };

async function repl(server: TestServer, command: string, ready: (text: string) => boolean): Promise<string> {
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command });
  await until(() => server.call<{ text: string }>("capture_pane", { pane_id }), (c) => ready(c.text));
  return pane_id;
}

Deno.test("run_in_repl python3: a block without its blank line completes at once; an unfinished one says so", async () => {
  await using server = await TestServer.start();
  const pane_id = await repl(server, "python3 -i -q", (text) => text.endsWith(">>>"));
  const prompt = ">>> $";
  const turn = (input: string) => server.call<Turn>("run_in_repl", { pane_id, input, prompt, timeout_ms: 20_000 });

  const define = await turn("def f(x):\n    return x * 3\n");
  assert.deepEqual([define.prompt_seen, define.output, define.waiting_for_more], [true, "", undefined]);
  assert.ok(define.elapsed_ms < 5000, `took ${define.elapsed_ms} ms`);
  assert.equal((await turn("f(14)")).output, "42");

  // Not finished even after an empty line: said at once, the REPL left as it is for the rest.
  const open = await turn("x = (1 +\n");
  assert.deepEqual([open.prompt_seen, open.waiting_for_more], [false, true], JSON.stringify(open));
  assert.ok(open.elapsed_ms < 5000, `took ${open.elapsed_ms} ms`);
  assert.deepEqual([(await turn("2)")).prompt_seen, (await turn("print(x)")).output], [true, "3"]);

  const error = await turn("1/0");
  assert.equal(error.prompt_seen, true);
  assert.match(error.output, /ZeroDivisionError: division by zero$/);
  const badBlock = await turn("def g(:\n    pass\n");
  assert.equal(badBlock.prompt_seen, true);
  assert.match(badBlock.output, /SyntaxError/);
  assert.equal((await turn("print('after')")).output, "after");
});

Deno.test("run_in_repl node: a multi-line function, a call, an unfinished input, an error", async () => {
  await using server = await TestServer.start();
  const pane_id = await repl(server, "node", (text) => /^> ?$/m.test(text));
  const prompt = "^> $";
  const turn = (input: string) => server.call<Turn>("run_in_repl", { pane_id, input, prompt, timeout_ms: 20_000 });

  const define = await turn("function triple(x) {\n  const y = x * 3;\n  return y;\n}\n");
  assert.deepEqual([define.prompt_seen, define.output], [true, "undefined"], JSON.stringify(define));
  assert.equal((await turn("triple(14)")).output, "42");

  const open = await turn("const list = [1, 2,\n");
  assert.deepEqual([open.prompt_seen, open.waiting_for_more], [false, true], JSON.stringify(open));
  assert.ok(open.elapsed_ms < 5000, `took ${open.elapsed_ms} ms`);
  assert.equal((await turn("3]")).prompt_seen, true);
  assert.equal((await turn("list.length")).output, "3");

  const error = await turn("null.x");
  assert.equal(error.prompt_seen, true);
  assert.match(error.output, /Uncaught TypeError: Cannot read properties of null/);
});
