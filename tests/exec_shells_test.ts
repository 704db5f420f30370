import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

type Exec = ExecResult;

// Each shell started without user configuration, as the pane's own program.
const SHELLS: Record<string, string> = {
  bash: "bash --norc --noprofile",
  zsh: "zsh -f",
  fish: "fish --no-config",
  dash: "dash",
};

for (const [shell, program] of Object.entries(SHELLS)) {
  Deno.test(`execute_command in ${shell}: output, exit codes, state that persists, a terminal`, async () => {
    await using server = await TestServer.start();
    const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: `exec ${program}` });
    const run = (command: string) => server.call<Exec>("execute_command", { pane_id, command });

    assertEquals(pick(await run("echo hi")), { output: "hi", exit_code: 0 });
    assertEquals(pick(await run("false")), { output: "", exit_code: 1 });
    assertEquals(pick(await run("sh -c 'exit 42'")), { output: "", exit_code: 42 });
    await run("cd /tmp");
    assertEquals(pick(await run("pwd")), { output: "/tmp", exit_code: 0 });
    await run("export X=1");
    assertEquals(pick(await run("echo $X")), { output: "1", exit_code: 0 });
    assertEquals(pick(await run("test -t 1 && echo tty")), { output: "tty", exit_code: 0 });
    assertEquals(pick(await run("false | true")), { output: "", exit_code: 0 });
    const quotes = await run(`printf '%s|%s|%s\\n' "a b" 'c"d' "it's"`);
    assertEquals(pick(quotes), { output: `a b|c"d|it's`, exit_code: 0 });
  });
}

function pick(result: Exec) {
  return { output: result.output, exit_code: result.exit_code };
}

Deno.test("execute_command without pane_id uses one owned pane named default", async () => {
  // dash as the user's shell: no start-up files, so the test does not depend on this machine's rc files.
  await using server = await TestServer.start({ env: { SHELL: "/bin/dash" } });
  const first = await server.call<Exec & { name: string }>("execute_command", { command: "echo one" });
  const second = await server.call<Exec & { name: string }>("execute_command", { command: "echo two" });
  assertEquals(first.output, "one");
  assertEquals(second.output, "two");
  assertEquals(first.name, "default");
  assertEquals(second.pane_id, first.pane_id);
  assert(first.pane_id.startsWith("%"));
});
