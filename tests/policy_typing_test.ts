import assert from "node:assert/strict";
import { type Decision, PolicyGate } from "../src/engine/policy/mod.ts";
import { CommandJudge, parsePolicy } from "../src/policy/mod.ts";

/**
 * What typing into a shell makes it run, as the gate judges it (no tmux: the gate alone, with a
 * recording audit). tests/policy_doors_test.ts shows the same through the tools on real tmux.
 */
function gate(policy: unknown) {
  const decisions: Decision[] = [];
  const g = new PolicyGate(new CommandJudge(parsePolicy(JSON.stringify(policy), "p.json")), (d) => {
    decisions.push(d);
    return Promise.resolve();
  });
  const scope = { tool: "send_keys", ask: null, allowed: new Set<string>() };
  const type = (pane: string, ...parts: ({ text: string; bracketed?: boolean } | { key: string })[]) =>
    g.within(scope, () => g.checkTyping({ paneId: pane, command: "bash" }, "local", parts));
  return { g, decisions, type };
}

function refused(code: string) {
  return (error: Error & { code?: string }) => {
    assert.equal(error.code, code, error.message);
    return true;
  };
}

const POLICY = { default: "deny", deny: ["rm -rf *"], allow: ["echo *", "cat *", "ls *"] };

Deno.test("lines run by Enter or a newline are judged; text left on the line too", async () => {
  const { decisions, type } = gate(POLICY);
  await type("%1", { text: "echo one" }, { key: "Enter" });
  await type("%1", { text: "ls\necho two" }); // the newline runs `ls`; `echo two` stays on the line
  assert.deepEqual(decisions.map((d) => [d.command, d.outcome]), [
    ["echo one", "allowed"],
    ["ls\necho two", "allowed"],
  ]);
  // `echo two` is still on the line: what follows is appended to it.
  await assert.rejects(type("%1", { text: "; rm -rf /" }), refused("POLICY_DENIED"));
  await type("%1", { key: "C-c" });
  await assert.rejects(type("%1", { text: "rm -rf /" }), refused("POLICY_DENIED"));
  await assert.rejects(type("%1", { text: "make" }, { key: "Enter" }), refused("POLICY_DENIED"));
});

Deno.test("a command typed in pieces is judged whole; C-c starts a fresh line", async () => {
  const { type } = gate(POLICY);
  await type("%1", { text: "echo rm -r" }); // allowed so far: echo
  await type("%1", { key: "C-c" });
  await type("%1", { text: "rm -r" }, { key: "C-u" }).catch(() => {}); // `rm -r` alone: default deny
  await type("%1", { text: "echo " });
  await type("%1", { text: "ok" }, { key: "Enter" });
  await type("%2", { text: "ls -l" });
  await assert.rejects(type("%2", { text: "; rm -rf /" }, { key: "Enter" }), refused("POLICY_DENIED"));
  // The same pane id on another host is another pane.
  const other = gate(POLICY);
  await other.type("%3", { text: "echo " });
  await other.g.within(
    { tool: "t", ask: null, allowed: new Set() },
    () => other.g.checkTyping({ paneId: "%3", command: "bash" }, "alpha", [{ text: "ls" }]),
  );
});

Deno.test("keys that recall or edit the line, then Enter, are ask; alone they run nothing", async () => {
  const { type, decisions } = gate(POLICY);
  await type("%1", { key: "Up" });
  assert.equal(decisions.length, 0);
  await assert.rejects(type("%1", { key: "Enter" }), refused("POLICY_ASK_UNAVAILABLE"));
  await assert.rejects(type("%1", { text: "ls" }, { key: "Tab" }, { key: "Enter" }), refused("POLICY_ASK_UNAVAILABLE"));
  await type("%2", { text: "ls" }, { key: "Space" }, { key: "-" }, { key: "l" }, { key: "Enter" });
  assert.deepEqual(decisions.at(-1)?.command, "ls -l");
});

Deno.test("text the shell waits on is judged once complete: here-documents, open quotes", async () => {
  const { type, decisions } = gate(POLICY);
  await type("%1", { text: "cat <<EOF" }, { key: "Enter" });
  await type("%1", { text: "not a command" }, { key: "Enter" });
  assert.equal(decisions.length, 0, "judged before the here-document ended");
  await type("%1", { text: "EOF" }, { key: "Enter" });
  assert.deepEqual(decisions.map((d) => [d.command, d.outcome]), [["cat <<EOF\nnot a command\nEOF", "allowed"]]);
  await type("%1", { text: "echo 'one" }, { key: "Enter" });
  await assert.rejects(type("%1", { text: "two'; rm -rf /" }, { key: "Enter" }), refused("POLICY_DENIED"));
  // A deny before the open quote is refused at once, not kept for later.
  await assert.rejects(type("%2", { text: "rm -rf / 'x" }), refused("POLICY_DENIED"));
});

Deno.test("only a shell in the foreground is judged; bracketed pastes wait for Enter as text", async () => {
  const { g, type, decisions } = gate(POLICY);
  const scope = { tool: "t", ask: null, allowed: new Set<string>() };
  await g.within(scope, () => g.checkTyping({ paneId: "%1", command: "vim" }, "local", [{ text: ":!rm -rf /\n" }]));
  await g.within(scope, () => g.checkTyping({ paneId: "%1", command: "python3" }, "local", [{ text: "rm -rf" }]));
  assert.equal(decisions.length, 0);
  await assert.rejects(type("%2", { text: "echo a\nrm -rf /\n", bracketed: true }), refused("POLICY_DENIED"));
  await type("%3", { text: "echo a\necho b", bracketed: true });
  assert.deepEqual(decisions.at(-1)?.command, "echo a\necho b");
});

Deno.test("without a policy the gate judges nothing and records nothing", async () => {
  const decisions: Decision[] = [];
  const g = new PolicyGate(null, (d) => {
    decisions.push(d);
    return Promise.resolve();
  });
  await g.check({ command: "rm -rf /", pane: null, host: "local" });
  await g.checkTyping({ paneId: "%1", command: "bash" }, "local", [{ text: "rm -rf /" }, { key: "Enter" }]);
  await g.checkEnvironment({ PROMPT_COMMAND: "rm -rf /" }, null, "local");
  assert.deepEqual(decisions, []);
});
