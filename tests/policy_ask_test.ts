import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer, until } from "./helpers/harness.ts";
import { Client, ElicitRequestSchema } from "./helpers/sdk_client.ts";
import type { ExecResult } from "./helpers/results.ts";
import { policyFile, removePolicyFile } from "./helpers/policy.ts";
import { shownCommand } from "../src/mcp/ask.ts";

/** `ask`: the person behind the calling client is asked through MCP elicitation; decisions are audited. */
type Reply = { action: "accept"; content: { decision: string } } | { action: "decline" } | { action: "cancel" };

function askingClient() {
  const client = new Client({ name: "asker", version: "1.2.3" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  const replies: Reply[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return replies.shift() ?? { action: "cancel" };
  });
  return { client, asked, replies };
}

async function auditLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.event === "policy");
}

Deno.test({
  name: "ask: run once, allow for the session, refuse, cancel; each decision one audit record",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const policy = await policyFile({ default: "allow", deny: ["touch *"], ask: ["echo asked *"] });
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const { client, asked, replies } = askingClient();
    const server = await TestServer.start({
      dir,
      client,
      env: { TMUXWRIGHT_POLICY: policy },
      args: ["--audit", `${dir}/audit.jsonl`],
    });
    try {
      const { pane_id: pane } = await server.call<{ pane_id: string }>("create_pane", {});
      await t.step("accepted once: it runs; the question names the command, pane, host and rule", async () => {
        replies.push({ action: "accept", content: { decision: "once" } });
        const ran = await server.call<ExecResult>("execute_command", { pane_id: pane, command: "echo asked one" });
        assert.equal(ran.output, "asked one");
        assert.equal(asked.length, 1);
        assert.match(asked[0], /Command:\n {4}echo asked one\n/);
        assert.match(asked[0], new RegExp(`Pane: ${pane} on host local`));
        assert.match(asked[0], /rule "echo asked \*" says ask/);
        replies.push({ action: "accept", content: { decision: "once" } });
        await server.call("execute_command", { pane_id: pane, command: "echo asked one" });
        assert.equal(asked.length, 2, "once is not remembered");
      });
      await t.step("allowed for the session: asked once, then it runs without a question", async () => {
        replies.push({ action: "accept", content: { decision: "session" } });
        await server.call("execute_command", { pane_id: pane, command: "echo asked two" });
        const again = await server.call<ExecResult>("execute_command", { pane_id: pane, command: "echo asked two" });
        assert.equal(again.output, "asked two");
        assert.equal(asked.length, 3);
      });
      await t.step("refused, declined or cancelled: POLICY_DECLINED and nothing runs", async () => {
        const marker = `${dir}/refused`;
        for (
          const reply of [{ action: "accept", content: { decision: "refuse" } }, { action: "decline" }, {
            action: "cancel",
          }] as Reply[]
        ) {
          replies.push(reply);
          const error = await server.callError("execute_command", {
            pane_id: pane,
            command: `echo asked three > ${marker}`,
          });
          assert.match(error, /POLICY_DECLINED/, error);
          assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
        }
        assert.equal(asked.length, 6);
      });
      await t.step("a deny is never asked", async () => {
        const error = await server.callError("execute_command", { pane_id: pane, command: `touch ${dir}/x` });
        assert.match(error, /POLICY_DENIED/);
        assert.equal(asked.length, 6);
      });
      await t.step("the audit log has one record per decision, the command hashed", async () => {
        await server.call("execute_command", { pane_id: pane, command: "echo plain" });
        const lines = await auditLines(`${dir}/audit.jsonl`);
        const outcomes = lines.map((l) => l.outcome);
        assert.deepEqual(outcomes, [
          "once",
          "once",
          "session",
          "remembered",
          "refused",
          "refused",
          "cancelled",
          "denied",
          "allowed",
        ]);
        const first = lines[0];
        assert.equal(first.tool, "execute_command");
        assert.equal(first.pane_id, pane);
        assert.equal(first.host, "local");
        assert.equal(first.verdict, "ask");
        assert.equal(first.rule, "echo asked *");
        assert.equal(first.answered_by, "asker 1.2.3");
        assert.equal(lines[7].verdict, "deny");
        assert.equal(lines[7].rule, "touch *");
        assert.match(JSON.stringify(first.command), /sha256/);
        const raw = await Deno.readTextFile(`${dir}/audit.jsonl`);
        assert.ok(!raw.includes("echo asked one"), "the command is in clear");
      });
    } finally {
      await server.close();
      await removePolicyFile(policy);
    }
  },
});

Deno.test({
  name: "a client without elicitation: POLICY_ASK_UNAVAILABLE naming the rule; default deny with an allow list",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const policy = await policyFile({ default: "deny", ask: ["git push *"], allow: ["echo *", "printf *", "cat *"] });
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const server = await TestServer.start({
      dir,
      env: { TMUXWRIGHT_POLICY: policy },
      args: ["--audit", `${dir}/audit.jsonl`, "--audit-payloads"],
    });
    try {
      const { pane_id: pane } = await server.call<{ pane_id: string }>("create_pane", {});
      const unavailable = await server.callError("execute_command", { pane_id: pane, command: "git push origin" });
      assert.match(unavailable, /POLICY_ASK_UNAVAILABLE/);
      assert.match(unavailable, /rule "git push \*"/);
      assert.match(unavailable, /move "git push \*" from ask to allow/);
      const denied = await server.callError("execute_command", { pane_id: pane, command: "ls -la" });
      assert.match(denied, /POLICY_DENIED/);
      assert.match(denied, /the policy's default \(deny\)/);
      const ok = await server.call<ExecResult>("execute_command", { pane_id: pane, command: "echo a; printf b" });
      assert.equal(ok.output, "a\nb");
      const lines = await auditLines(`${dir}/audit.jsonl`);
      assert.deepEqual(lines.map((l) => [l.outcome, l.rule, l.command]), [
        ["unavailable", "git push *", "git push origin"],
        ["denied", "default", "ls -la"],
        ["allowed", "echo *", "echo a; printf b"],
      ]);
      // A here-document typed a line per call: the shell waits for its end, and so does the judge (its body
      // lines are not commands); then it is one decision on the whole text.
      for (const text of ["cat <<EOF", "heredoc body line", "EOF"]) {
        await server.call("send_keys", { pane_id: pane, text });
      }
      await until(
        () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
        (screen) => screen.text.split("\n").filter((l) => l.trim() === "heredoc body line").length === 1,
      );
      const last = (await auditLines(`${dir}/audit.jsonl`)).slice(3);
      assert.deepEqual(last.map((l) => [l.outcome, l.rule, l.command]), [
        ["allowed", "cat *", "cat <<EOF\nheredoc body line\nEOF"],
      ]);
    } finally {
      await server.close();
      await removePolicyFile(policy);
    }
  },
});

/** Starts main.ts as `deno task start` would; its exit code and stderr. */
async function startWith(args: string[], env: Record<string, string>, extra: string[]) {
  const full = cleanEnv(env);
  const out = await new Deno.Command("deno", {
    args: ["run", ...startPermissions(full, extra), new URL("../main.ts", import.meta.url).pathname, ...args],
    env: full,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("a missing, unreadable or invalid policy file stops the server at start with one line", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const outside = await Deno.makeTempDir({ dir: "/tmp", prefix: "twp" });
  try {
    await Deno.writeTextFile(`${dir}/bad.json`, '{"default": "allow", "deny": ["rm $X"]}');
    await Deno.writeTextFile(`${dir}/broken.json`, '{"default": ');
    await Deno.writeTextFile(`${outside}/p.json`, '{"default": "allow"}');
    const state = ["--state-dir", `${dir}/state`];
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["--policy", `${dir}/none.json`], {}, /^tmuxwright: policy file \S+none\.json: no such file$/],
      [[], { TMUXWRIGHT_POLICY: `${dir}/broken.json` }, /^tmuxwright: policy file \S+broken\.json: not valid JSON/],
      [
        ["--policy", `${dir}/bad.json`],
        {},
        /^tmuxwright: policy file \S+bad\.json: rule "rm \$X": \$X is not a literal/,
      ],
      [["--policy", dir], {}, /^tmuxwright: policy file \S+: is a directory$/],
      [["--policy", "policy.json"], {}, /^tmuxwright: policy file policy\.json: must be an absolute path$/],
      // Given as a flag, outside what the permissions grant (the task's own line grants it: see below).
      [["--policy", `${outside}/p.json`], {}, /the Deno permissions do not allow reading it/],
    ];
    for (const [args, env, message] of cases) {
      const { code, stderr } = await startWith([...state, ...args], env, [dir]);
      assert.equal(code, 2, stderr);
      const lines = stderr.trim().split("\n");
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], message);
    }
    // `deno task start` grants reading the file named by the flag: doctor prints the policy in force.
    const task = await new Deno.Command("deno", {
      args: ["task", "-q", "start", ...state, "--policy", `${outside}/p.json`, "doctor"],
      cwd: new URL("..", import.meta.url).pathname,
      env: cleanEnv(),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const printed = new TextDecoder().decode(task.stdout);
    assert.match(printed, new RegExp(`info command policy: ${outside}/p\\.json: default allow; deny none`), printed);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("the question shows the command so that it cannot pass for the question or drive a terminal", () => {
  assert.equal(shownCommand("ls\nRule: none\x1b[2K"), "    ls\n    Rule: none\\x1b[2K");
  assert.match(shownCommand("x".repeat(5000)), /^ {4}x{4000}… \(5000 characters\)$/);
});
