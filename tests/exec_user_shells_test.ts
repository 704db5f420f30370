import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";

/**
 * Each shell as the user's `$SHELL`, with a start-up file that prints, sleeps, sets its prompt
 * and runs commands (as users' files do): the first command must come within seconds of the
 * pane's creation (never a 10 s stall, never PANE_BUSY while the shell starts), with exact output,
 * exit codes and state that persists. `link`: the shell is reached through a symlink of this name.
 */
interface UserShell {
  program: string;
  link?: string;
  rc?: { file: string; text: string };
  /** Variables the shell needs to find its start-up file (ENV), relative to the home. */
  env?: Record<string, string>;
  csh?: boolean;
}

const POSIX_RC = "echo 'loading plugin 1'; sleep 0.3; ls / >/dev/null; grep -q root /etc/passwd; " +
  "echo 'loading plugin 2'; PS1='[rc] $ '\n";

const SHELLS: Record<string, UserShell> = {
  // A wrapper of the kind nix, direnv and containers install: it ignores the arguments it is given
  // (our integration's), so the shell prints no marks.
  "a wrapper around bash --norc": { program: "WRAPPER", link: "bash" },
  mksh: { program: "/usr/bin/mksh", rc: { file: ".mkshrc", text: POSIX_RC } },
  ksh93: { program: "/usr/bin/ksh93", rc: { file: ".kshrc", text: POSIX_RC }, env: { ENV: ".kshrc" } },
  yash: { program: "/usr/bin/yash", rc: { file: ".yashrc", text: POSIX_RC } },
  "yash without a start-up file": { program: "/usr/bin/yash" },
  "busybox sh": {
    program: "/usr/bin/busybox",
    link: "ash",
    rc: { file: ".shrc", text: POSIX_RC },
    env: { ENV: ".shrc" },
  },
  tcsh: {
    program: "/usr/bin/tcsh",
    rc: {
      file: ".tcshrc",
      text: "echo 'loading plugin 1'\nsleep 0.3\nls / >/dev/null\nset prompt='[rc] %~ > '\necho 'loading plugin 2'\n",
    },
    csh: true,
  },
  // Each program it runs leaves tmux naming the pane's first program (`sh`) until the next starts.
  "tcsh whose start-up file runs many programs": {
    program: "/usr/bin/tcsh",
    rc: {
      file: ".tcshrc",
      text: "echo 'loading plugins'\n" + "ls / >/dev/null\nsleep 0.01\n".repeat(40) +
        "set prompt='[rc] > '\n",
    },
    csh: true,
  },
};

for (const [name, shell] of Object.entries(SHELLS)) {
  Deno.test(`${name} as the user's shell: first command at once, exact output and status, state kept`, async () => {
    const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-home" });
    try {
      let program = shell.program;
      if (program === "WRAPPER") {
        program = `${home}/wrapper`;
        await Deno.writeTextFile(program, "#!/bin/sh\nexec /bin/bash --norc --noprofile\n", { mode: 0o755 });
      }
      if (shell.link) {
        await Deno.mkdir(`${home}/bin`);
        await Deno.symlink(program, `${home}/bin/${shell.link}`);
        program = `${home}/bin/${shell.link}`;
      }
      if (shell.rc) await Deno.writeTextFile(`${home}/${shell.rc.file}`, shell.rc.text);
      const env: Record<string, string> = { HOME: home, SHELL: program };
      for (const [key, file] of Object.entries(shell.env ?? {})) env[key] = `${home}/${file}`;
      await using server = await TestServer.start({ env });

      const started = performance.now();
      const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
      const run = (command: string) => server.call<ExecResult>("execute_command", { pane_id, command });
      assertEquals(pick(await run("echo hi")), { output: "hi", exit_code: 0 });
      const first = performance.now() - started;
      // The figure itself is in docs/BENCHMARKS.md; this bound catches a stall on a busy machine.
      assert.ok(first < 5_000, `first command took ${Math.round(first)} ms`);

      assertEquals(pick(await run("false")), { output: "", exit_code: 1 });
      assertEquals(pick(await run("sh -c 'exit 42'")), { output: "", exit_code: 42 });
      await run("cd /tmp");
      assertEquals(pick(await run("pwd")), { output: "/tmp", exit_code: 0 });
      await run(shell.csh ? "set X=persisted" : "X=persisted");
      assertEquals(pick(await run("echo $X")), { output: "persisted", exit_code: 0 });
      assertEquals(pick(await run("test -t 1 && echo tty")), { output: "tty", exit_code: 0 });
      assertEquals(pick(await run("echo one; echo two")), { output: "one\ntwo", exit_code: 0 });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

function pick(result: ExecResult) {
  return { output: result.output, exit_code: result.exit_code };
}

Deno.test("a shell execute_command cannot drive is UNSUPPORTED_SHELL at once, naming it", async () => {
  await using server = await TestServer.start();
  // A program that calls itself pwsh holds the terminal, as PowerShell would.
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "exec -a pwsh sleep 30" });
  const started = performance.now();
  const error = await server.callError("execute_command", { pane_id, command: "echo hi" });
  assert.match(error, /UNSUPPORTED_SHELL: .*"pwsh"/);
  assert.match(error, /send_keys/);
  assert.ok(performance.now() - started < 3_000, "answered at once, not after a grace");
});
