import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer, until } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";
import { parsePaneEnv } from "../src/config/values.ts";

/** A git repository with `commits` commits and, uncommitted, a large change to one file. */
async function longHistory(commits: number): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twgit" });
  const env = {
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  const lines = Array.from({ length: 600 }, (_, i) => `line ${i}`);
  await Deno.writeTextFile(`${dir}/big.txt`, lines.join("\n") + "\n");
  const script = `git init -q && git add big.txt && git commit -qm 'commit 1' && ` +
    `for i in $(seq 2 ${commits}); do git commit -q --allow-empty -m "commit $i"; done`;
  const out = await new Deno.Command("sh", { args: ["-c", script], cwd: dir, env }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  await Deno.writeTextFile(`${dir}/big.txt`, lines.map((l) => `${l} changed`).join("\n") + "\n");
  return dir;
}

const run = (server: TestServer, command: string, extra: Record<string, unknown> = {}) =>
  server.call<ExecResult>("execute_command", { command, timeout_ms: 8000, max_output: 200_000, ...extra });

Deno.test("owned panes page nothing: git log, git diff and man return their whole output", async () => {
  const repo = await longHistory(300);
  await using server = await TestServer.start();
  try {
    const log = await run(server, `git -C ${repo} log --format=%s`);
    assert.equal(log.timed_out, false, log.output.slice(-500));
    assert.equal(log.exit_code, 0);
    const subjects = log.output.trim().split("\n");
    assert.equal(subjects.length, 300);
    assert.equal(subjects[0], "commit 300");
    assert.equal(subjects.at(-1), "commit 1");

    const diff = await run(server, `git -C ${repo} diff`);
    assert.equal(diff.timed_out, false, diff.output.slice(-500));
    assert.equal(diff.exit_code, 0);
    assert.match(diff.output, /^\+line 599 changed$/m);

    const where = await new Deno.Command("man", { args: ["-w", "ls"] }).output().catch(() => null);
    if (where?.code === 0) {
      const man = await run(server, "man ls");
      assert.equal(man.timed_out, false, man.output.slice(-500));
      assert.equal(man.exit_code, 0);
      assert.match(man.output, /SEE ALSO/);
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("pane environment: defaults, --pane-env, a call's env; a person's pane is left as it is", async () => {
  await using server = await TestServer.start({
    env: { PAGER: "less", GIT_PAGER: "less", TMUXWRIGHT_PANE_ENV: "GH_PAGER=more,EXTRA=a\\,b" },
    args: ["--pane-env", "GIT_PAGER=", "--pane-env", "MANPAGER=most"],
  });
  const show = 'printf \'%s|\' "$PAGER" "$GIT_PAGER" "$MANPAGER" "${SYSTEMD_PAGER-unset}" "$GH_PAGER" "$EXTRA"';
  // Flags win over the environment's list: only --pane-env applies.
  const owned = await run(server, show);
  assert.equal(owned.output, "cat|less|most||cat||");

  const custom = await server.call<{ pane_id: string }>("create_pane", {
    command: PLAIN_BASH,
    env: { PAGER: "less", SYSTEMD_PAGER: "less" },
  });
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: custom.pane_id }),
    (s) => s.at_shell_prompt,
  );
  const overridden = await run(server, show, { pane_id: custom.pane_id });
  assert.equal(overridden.output, "less|less|most|less|cat||");

  const made = await server.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", PLAIN_BASH);
  const mine = made.stdout.trim();
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: mine }),
    (s) => s.at_shell_prompt,
  );
  const person = await run(server, show, { pane_id: mine });
  assert.equal(person.output, "less|less||unset|||");
});

Deno.test("TMUXWRIGHT_PANE_ENV applies without flags; its list splits on commas, `\\,` keeps one", async () => {
  await using server = await TestServer.start({ env: { TMUXWRIGHT_PANE_ENV: "PAGER=,EXTRA=a\\,b" } });
  const out = await run(server, 'printf \'%s|\' "${PAGER-unset}" "$GIT_PAGER" "$EXTRA"');
  assert.equal(out.output, "unset|cat|a,b|");
});

Deno.test("--pane-env values are checked at start-up", () => {
  assert.deepEqual(parsePaneEnv(["A=1", "B="], false), [["A", "1"], ["B", null]]);
  assert.deepEqual(parsePaneEnv(["A=x\\,y,B=2"], true), [["A", "x,y"], ["B", "2"]]);
  assert.throws(() => parsePaneEnv(["1A=x"], false), /--pane-env "1A=x": expected KEY=VALUE/);
  assert.throws(() => parsePaneEnv(["NOVALUE"], false), /expected KEY=VALUE/);
  assert.throws(() => parsePaneEnv(["A=\u0001"], false), /control characters/);
});

Deno.test("doctor prints the pane environment in force", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const main = new URL("../main.ts", import.meta.url).pathname;
    const args = [...startPermissions(cleanEnv(), [dir]), main, "--state-dir", `${dir}/state`, "doctor"];
    const out = await new Deno.Command("deno", {
      args: ["run", ...args, "--pane-env", "PAGER=less", "--pane-env", "LESS="],
      env: cleanEnv(),
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const line = text.split("\n").find((l) => l.startsWith("info agents' panes start with:"));
    assert.equal(
      line,
      "info agents' panes start with: PAGER=less GIT_PAGER=cat MANPAGER=cat SYSTEMD_PAGER= PSQL_PAGER=cat " +
        `GH_PAGER=cat CLAUDE_CODE_PLUGIN_DIRS=${dir}/state/agents/claude/plugin (--pane-env changes it)`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
