import assert from "node:assert/strict";
import { cleanEnv, startPermissions, tmuxAt } from "./helpers/harness.ts";
import { CallToolResultSchema, Client, StdioClientTransport } from "./helpers/sdk_client.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Runs the server with the start task's permissions and no input: it starts, sees EOF and exits. */
async function runServer(env: Record<string, string>, args: string[], grant: string[]) {
  const out = await new Deno.Command("deno", {
    args: ["run", ...startPermissions(env, grant), MAIN, ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/** A start-up failure is one line naming the problem and the fix, exit status 2, no stack trace. */
function assertOneLineFailure(out: { code: number; stderr: string }, problem: RegExp): void {
  assert.equal(out.code, 2, out.stderr);
  const lines = out.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `expected one line, got:\n${out.stderr}`);
  assert.match(lines[0], problem);
  assert.doesNotMatch(out.stderr, /Uncaught|\n\s+at /);
}

Deno.test("an audit file in a state directory that does not exist yet: the directory is created (0700)", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const xdg = `${dir}/xdg-state`; // does not exist
  const env = cleanEnv({ XDG_STATE_HOME: xdg });
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      ...startPermissions(env, [`${dir}/s`]),
      MAIN,
      "--socket-path",
      `${dir}/s`,
      "--audit",
      `${xdg}/tmuxwright/audit.jsonl`,
    ],
    env,
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const client = new Client({ name: "startup-test", version: "0" });
  try {
    await client.connect(transport);
    const result = CallToolResultSchema.parse(await client.callTool({ name: "list_panes", arguments: {} }));
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const stat = await Deno.stat(`${xdg}/tmuxwright`);
    assert.ok(stat.isDirectory);
    assert.equal(stat.mode! & 0o777, 0o700);
    const audit = (await Deno.readTextFile(`${xdg}/tmuxwright/audit.jsonl`)).trim().split("\n");
    assert.equal(JSON.parse(audit[0]).tool, "list_panes");
  } catch (error) {
    throw new Error(`${(error as Error).message}\nserver stderr:\n${stderr.join("")}`);
  } finally {
    await client.close().catch(() => {});
    await tmuxAt(`${dir}/s`, "kill-server").catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start-up failures are one line with the fix and exit status 2, never a stack trace", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const env = cleanEnv();
    const base = ["--socket-path", `${dir}/s`];
    // The state directory's place is taken by a file.
    await Deno.writeTextFile(`${dir}/file`, "");
    const state = await runServer(env, [...base, "--state-dir", `${dir}/file/state`], [dir]);
    assertOneLineFailure(state, /^tmuxwright: Cannot create the state directory ".*\/file\/state": .*--state-dir/);
    // The audit path is a directory.
    await Deno.mkdir(`${dir}/audit-dir`);
    const audit = await runServer(env, [...base, "--state-dir", `${dir}/state`, "--audit", `${dir}/audit-dir`], [dir]);
    assertOneLineFailure(audit, /^tmuxwright: Cannot open the audit file ".*\/audit-dir": .*--audit/);
    // --audit-full names a file, not a directory.
    const full = await runServer(env, [...base, "--state-dir", `${dir}/state`, "--audit-full", `${dir}/file`], [dir]);
    assertOneLineFailure(full, /^tmuxwright: Cannot create the --audit-full directory ".*\/file": .*--audit-full/);
    // A configuration mistake stays one line too.
    assertOneLineFailure(await runServer(env, [...base, "--tools", "most"], [dir]), /^tmuxwright: Invalid --tools/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a tmux older than 3.2 is refused at start with one line that says what to install", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/tmux`, "#!/bin/sh\necho 'tmux 3.1c'\n", { mode: 0o755 });
    const env = cleanEnv({ PATH: `${dir}/bin:${Deno.env.get("PATH")}` });
    // stdin stays open as an MCP client's would: the refusal, not the end of input, ends the server.
    const child = new Deno.Command("deno", {
      args: ["run", ...startPermissions(env, [dir]), MAIN, "--socket-path", `${dir}/s`, "--state-dir", `${dir}/st`],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000); // still serving: not refused
    const out = await child.output();
    clearTimeout(timer);
    assertOneLineFailure(
      { code: out.code, stderr: new TextDecoder().decode(out.stderr) },
      /^tmuxwright: tmux 3\.1c is too old: install tmux 3\.2 or newer .*brew install tmux/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
