import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * A user's prompt hooks run after every command (pyenv, conda, starship, direnv, plugins): a
 * command's end and status are known before any of them runs, so the answer never waits on them.
 * Each hook here sleeps 2 s and counts its runs in a file; `true` must be answered well before.
 */
const HOOK = "sleep 2; echo x >> ~/hook-runs";

const CASES: Record<string, { shell: string; file: string; text: string }> = {
  "bash, PROMPT_COMMAND with the hook first (as pyenv-virtualenv installs it)": {
    shell: "/bin/bash",
    file: ".bashrc",
    text: `__hook() { ${HOOK}; }\nPROMPT_COMMAND="__hook;\${PROMPT_COMMAND-}"\n`,
  },
  "bash, PROMPT_COMMAND as an array": {
    shell: "/bin/bash",
    file: ".bashrc",
    text: `__hook() { ${HOOK}; }\nPROMPT_COMMAND=(__hook)\n`,
  },
  "zsh, a precmd function (it runs before precmd_functions), PROMPT_SP off": {
    shell: "/usr/bin/zsh",
    file: ".zshrc",
    text: `precmd() { ${HOOK} }\nunsetopt PROMPT_SP\n`,
  },
  "zsh, precmd_functions with the hook first, PROMPT_SP off": {
    shell: "/usr/bin/zsh",
    file: ".zshrc",
    text: `__hook() { ${HOOK} }\nprecmd_functions=(__hook $precmd_functions)\nunsetopt PROMPT_SP\n`,
  },
  "fish, a fish_postexec handler in config.fish": {
    shell: "/usr/bin/fish",
    file: ".config/fish/config.fish",
    text: `function __hook --on-event fish_postexec\n  ${HOOK}\nend\n`,
  },
  "fish, a slow fish_prompt": {
    shell: "/usr/bin/fish",
    file: ".config/fish/config.fish",
    text: `function fish_prompt\n  ${HOOK}\n  printf '> '\nend\n`,
  },
};

for (const [name, { shell, file, text }] of Object.entries(CASES)) {
  Deno.test(`a command's end does not wait for the user's hooks: ${name}`, async () => {
    const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
    try {
      await Deno.mkdir(`${home}/.config/fish`, { recursive: true });
      await Deno.writeTextFile(`${home}/${file}`, text);
      await using server = await TestServer.start({ env: { HOME: home, SHELL: shell } });
      const run = (command: string) => server.call<ExecResult>("execute_command", { command, timeout_ms: 20_000 });
      assert.equal((await run("echo ready")).output, "ready"); // the first prompt (after its hook) is up
      const before = await runs(home);
      const ended = await run("echo done; false");
      assert.deepEqual([ended.output, ended.exit_code], ["done", 1]);
      assert.ok(ended.duration_ms < 1_000, `answered after ${ended.duration_ms} ms: it waited for the 2 s hook`);
      // The hooks still run, as they always do: the next command comes after them.
      assert.equal((await run("echo after")).output, "after");
      assert.ok(await runs(home) > before, "the hook ran after the command");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

async function runs(home: string): Promise<number> {
  const text = await Deno.readTextFile(`${home}/hook-runs`).catch(() => "");
  return text.split("\n").filter((line) => line === "x").length;
}
