import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

/**
 * Prompts are matched as the program wrote them: the unterminated last line keeps its trailing
 * space for start_process `ready`, wait_for_text (also since: "screen"), watch_pane `pattern:`
 * and run_in_repl; `$` anchors at the end of that line. A process that blocks reading the
 * terminal before `ready` matched ends start_process at once with outcome `input`.
 */
type Start = { pane_id: string; outcome: string; matched_line?: string; last_lines?: string[]; elapsed_ms: number };
type Wait = { matched: boolean; line?: string; from?: string; last_lines?: string[] };
type Watch = { trigger: string; line?: string };

interface Asker {
  /** The command that prints `prompt` and reads one line, then prints `hello <reply>`. */
  command: string;
  prompt: string;
}

const node = (prompt: string) =>
  `node -e "const rl=require('readline').createInterface({input:process.stdin,output:process.stdout});` +
  `rl.question('${prompt}',a=>{console.log('hello '+a);rl.close()})"`;

const ASKERS: Record<string, Asker> = {
  python: { command: `python3 -c "n=input('name? '); print('hello', n)"`, prompt: "name? " },
  bash: { command: `bash --norc -c 'read -r -p "Password: " n; echo "hello $n"'`, prompt: "Password: " },
  zsh: { command: `zsh -f -c 'print -n "Continue> "; read n; echo "hello $n"'`, prompt: "Continue> " },
  fish: { command: `fish --no-config -c 'read -P "deploy? " n; echo hello $n'`, prompt: "deploy? " },
  node: { command: node("deploy$ "), prompt: "deploy$ " },
};

/** The prompt as a regex anchored at both ends (`$` right after its trailing space). */
const anchored = (prompt: string) => `^${prompt.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}$`;

// Panes run dash as the user's shell: no start-up files, so nothing but the program prints.
const ENV = { SHELL: "/bin/dash" };

for (const [name, asker] of Object.entries(ASKERS)) {
  Deno.test(`prompt "${asker.prompt}" of ${name}: ready, since screen, pattern trigger, input outcome`, async () => {
    await using server = await TestServer.start({ env: ENV });

    const ready = await server.call<Start>("start_process", {
      command: asker.command,
      ready: anchored(asker.prompt),
      timeout_ms: 15_000,
    });
    assert.deepEqual([ready.outcome, ready.matched_line], ["ready", asker.prompt], JSON.stringify(ready));

    const screen = await server.call<Wait>("wait_for_text", {
      pane_id: ready.pane_id,
      pattern: asker.prompt,
      since: "screen",
      timeout_ms: 3_000,
    });
    assert.deepEqual([screen.matched, screen.from], [true, "screen"], JSON.stringify(screen));
    const anchoredScreen = await server.call<Wait>("wait_for_text", {
      pane_id: ready.pane_id,
      pattern: anchored(asker.prompt),
      regex: true,
      since: "screen",
      timeout_ms: 3_000,
    });
    assert.equal(anchoredScreen.matched, true, JSON.stringify(anchoredScreen));
    await server.call("send_keys", { pane_id: ready.pane_id, text: "tmux" });
    const hello = await server.call<Wait>("wait_for_text", {
      pane_id: ready.pane_id,
      pattern: "hello tmux",
      since: "screen",
      timeout_ms: 10_000,
    });
    assert.equal(hello.matched, true, JSON.stringify(hello));

    // A watch that starts before the prompt is drawn fires on it.
    const later = await server.call<Start>("start_process", { command: `sleep 1; ${asker.command}` });
    const watched = await server.call<Watch>("watch_pane", {
      pane_id: later.pane_id,
      triggers: [`pattern:${anchored(asker.prompt)}`],
      timeout_ms: 15_000,
    });
    assert.deepEqual([watched.trigger.startsWith("pattern:"), watched.line], [true, asker.prompt]);

    // Waiting for a ready line that never comes ends as soon as the program asks its question.
    const asked = await server.call<Start>("start_process", {
      command: asker.command,
      ready: "^listening on",
      timeout_ms: 20_000,
    });
    assert.equal(asked.outcome, "input", JSON.stringify(asked));
    assert.equal(asked.last_lines?.at(-1), asker.prompt, JSON.stringify(asked));
    assert.ok(asked.elapsed_ms < 8_000, `input seen after ${asked.elapsed_ms} ms`);
  });
}

Deno.test("run_in_repl matches prompts with their trailing space in node and python", async () => {
  await using server = await TestServer.start({ env: ENV });
  for (const [program, prompt, input, output] of [["node", "^> $", "1+1", "2"], ["python3 -q", "^>>> $", "2*3", "6"]]) {
    const started = await server.call<Start>("start_process", { command: program, ready: prompt, timeout_ms: 15_000 });
    assert.equal(started.outcome, "ready", JSON.stringify(started));
    const turn = await server.call<{ output: string; prompt_seen: boolean }>("run_in_repl", {
      pane_id: started.pane_id,
      input,
      prompt,
      timeout_ms: 10_000,
    });
    assert.deepEqual([turn.prompt_seen, turn.output], [true, output]);
  }
});
