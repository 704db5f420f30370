import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { heavyHome } from "./helpers/heavy_shell.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * Shells as people have them: start-up files that burn half a second of CPU and a prompt hook of
 * ~20 ms before every prompt (tests/helpers/heavy_shell.ts). Commands are exact from the first
 * one, one after another (each waits for the prompt the hook delays, never for a timer), and a
 * command's end is answered before the hook runs.
 */
const SHELLS = { bash: "/bin/bash", zsh: "/usr/bin/zsh", fish: "/usr/bin/fish" };

const home = await heavyHome();

for (const [name, shell] of Object.entries(SHELLS)) {
  Deno.test(`${name} with heavy start-up files and prompt hook: exact output, status and state`, async () => {
    await using server = await TestServer.start({ env: { HOME: home, SHELL: shell } });
    const run = (command: string) => server.call<ExecResult>("execute_command", { command, timeout_ms: 30_000 });
    const pick = (r: ExecResult) => [r.output, r.exit_code];
    assert.deepEqual(pick(await run("echo first")), ["first", 0]);
    for (let i = 0; i < 5; i++) assert.deepEqual(pick(await run(`echo round${i}; false`)), [`round${i}`, 1]);
    await run("cd /tmp");
    assert.deepEqual(pick(await run("pwd")), ["/tmp", 0]);
    assert.deepEqual(pick(await run("echo x; exit 5")), ["x", 5]);
  });
}

Deno.test("the heavy fixture is heavy: its start-up burns CPU, its hook runs before every prompt", async () => {
  const started = performance.now();
  const out = await new Deno.Command("bash", {
    args: ["-ic", 'for c in "${PROMPT_COMMAND[@]}"; do eval "$c"; done; times'],
    env: { HOME: home },
    stdout: "piped",
    stderr: "null",
  }).output();
  const wall = performance.now() - started;
  // `times`: the shell's own, then its children's user and system time.
  const [, children] = new TextDecoder().decode(out.stdout).trim().split("\n");
  const cpu = children.split(" ").reduce((sum, t) => {
    const [m, s] = t.replace("s", "").split("m");
    return sum + Number(m) * 60 + Number(s);
  }, 0);
  assert.ok(cpu >= 0.45, `the start-up burnt ${cpu} s of CPU`);
  assert.ok(wall >= 500, `bash -i took ${Math.round(wall)} ms`);
});

globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));
