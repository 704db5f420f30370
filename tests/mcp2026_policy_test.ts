/**
 * The command policy's `ask` in the 2026-07-28 era: the call answers `input_required` with the
 * question, the person answers in the client, the client retries with the answer and the sealed
 * `requestState` (docs/design/mcp_2026.md). Nothing is typed before the answer; each decision is
 * audited once; a state that is tampered with, or brought back for another call or by another
 * caller, runs nothing.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { tmuxAt, until } from "./helpers/harness.ts";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { ModernClient, negotiation } from "./helpers/modern_client.ts";
import { policyFile, removePolicyFile } from "./helpers/policy.ts";

type Reply = { action: "accept"; content: { decision: string } } | { action: "decline" } | { action: "cancel" };

/** A v2 client pinned to 2026-07-28 whose person answers from `replies`, looking at the pane first. */
function askingClient(onAsk: () => Promise<void> = () => Promise.resolve()) {
  const client = new Client({ name: "asker", version: "1.2.3" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: negotiation("pin"),
  });
  const asked: string[] = [];
  const replies: Reply[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push((request.params as { message: string }).message);
    await onAsk();
    return replies.shift() ?? { action: "cancel" };
  });
  return { client, asked, replies };
}

async function decisions(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.event === "policy");
}

const POLICY = { default: "allow", deny: ["touch *"], ask: ["echo asked *"] };

async function askTour(c: ModernClient, asked: string[], replies: Reply[], dir: string, by: RegExp) {
  const pane = (await c.call("create_pane", {})).pane_id as string;
  replies.push({ action: "accept", content: { decision: "once" } });
  const ran = await c.call("execute_command", { pane_id: pane, command: "echo asked one" });
  assert.equal(ran.output, "asked one");
  assert.equal(asked.length, 1);
  assert.match(asked[0], /Command:\n {4}echo asked one\n/);
  assert.match(asked[0], new RegExp(`Pane: ${pane} on host local`));

  replies.push({ action: "accept", content: { decision: "session" } });
  await c.call("execute_command", { pane_id: pane, command: "echo asked two" });
  assert.equal((await c.call("execute_command", { pane_id: pane, command: "echo asked two" })).output, "asked two");
  assert.equal(asked.length, 2, "allowed for the session: asked once");

  const marker = `${dir}/refused`;
  for (const reply of [{ action: "accept", content: { decision: "refuse" } }, { action: "decline" }] as Reply[]) {
    replies.push(reply);
    const error = await c.callError("execute_command", { pane_id: pane, command: `echo asked three > ${marker}` });
    assert.match(error, /POLICY_DECLINED/);
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
  }
  assert.match(await c.callError("execute_command", { pane_id: pane, command: `touch ${dir}/x` }), /POLICY_DENIED/);
  const lines = await decisions(`${dir}/audit.jsonl`);
  assert.deepEqual(lines.map((l) => l.outcome), ["once", "session", "remembered", "refused", "refused", "denied"]);
  assert.match(String(lines[0].answered_by), by);
  assert.equal(lines[0].rule, "echo asked *");
}

for (const transport of ["stdio", "http"] as const) {
  Deno.test({
    name: `MCP 2026 ask over ${transport}: answered in the client, then it runs; each decision audited once`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const policy = await policyFile(POLICY);
      const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
      const audit = ["--audit", `${dir}/audit.jsonl`];
      // While the person reads the question, the command is nowhere on the pane's screen.
      const screens: string[] = [];
      let socket = "";
      const { client, asked, replies } = askingClient(async () => {
        const panes = (await tmuxAt(socket, "list-panes", "-a", "-F", "#{pane_id}")).stdout.split("\n").filter(Boolean);
        const texts = await Promise.all(panes.map((p) => tmuxAt(socket, "capture-pane", "-p", "-t", p)));
        screens.push(texts.map((t) => t.stdout).join("\n"));
      });
      try {
        if (transport === "stdio") {
          await using c = await ModernClient.stdio({
            mode: "pin",
            client,
            env: { TMUXWRIGHT_POLICY: policy },
            args: audit,
          });
          socket = c.socket!;
          await askTour(c, asked, replies, dir, /^asker 1\.2\.3$/);
        } else {
          await using server = await HttpMcpServer.start({ dir, env: { TMUXWRIGHT_POLICY: policy }, flags: audit });
          socket = `${server.dir}/s`;
          await using c = await ModernClient.http(server.mcpUrl, { mode: "pin", client });
          await askTour(c, asked, replies, dir, /^asker 1\.2\.3 \(workspace [\w-]{8}\)$/);
        }
        // The first question came before anything was typed; later ones see earlier commands' lines.
        assert.ok(
          screens.length >= 1 && screens[0].length > 0 && !screens[0].includes("asked"),
          JSON.stringify(screens),
        );
      } finally {
        await removePolicyFile(policy);
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  });
}

Deno.test({
  name:
    "MCP 2026 ask: a client without elicitation gets POLICY_ASK_UNAVAILABLE; a tampered or borrowed state runs nothing",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const policy = await policyFile(POLICY);
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    try {
      await using server = await HttpMcpServer.start({ env: { TMUXWRIGHT_POLICY: policy } });
      await using mute = await ModernClient.http(server.mcpUrl, { mode: "pin" });
      assert.match(await mute.callError("execute_command", { command: "echo asked mute" }), /POLICY_ASK_UNAVAILABLE/);

      // A client that declares elicitation but answers by hand: the first round comes back to the test.
      const manual = ModernClient.create({ mode: "pin", capabilities: { elicitation: { form: {} } } });
      await using c = await ModernClient.http(server.mcpUrl, { mode: "pin", client: manual });
      const pane = (await c.call("create_pane", {})).pane_id as string;
      const marker = `${dir}/ran`;
      const args = { workspace: c.workspace, pane_id: pane, command: `echo asked four > ${marker}` };
      const round = await manual.callTool({ name: "execute_command", arguments: args }, { allowInputRequired: true });
      const first = round as unknown as {
        resultType: string;
        requestState: string;
        inputRequests: Record<string, unknown>;
      };
      assert.equal(first.resultType, "input_required");
      assert.deepEqual(Object.keys(first.inputRequests), ["policy"]);
      const yes = { policy: { action: "accept", content: { decision: "once" } } };
      const retry = (argsNow: Record<string, unknown>, state: string, by = manual) =>
        by.callTool(
          { name: "execute_command", arguments: argsNow, inputResponses: yes, requestState: state } as never,
          {
            allowInputRequired: true,
          },
        );

      // Another command under the answer given for this one.
      const other = await retry({ ...args, command: `echo asked five > ${marker}` }, first.requestState);
      assert.equal(other.isError, true);
      assert.match(JSON.stringify(other.content), /requestState belongs to another call/);
      // A state altered by one character.
      const bad = first.requestState.slice(0, 40) + (first.requestState[40] === "A" ? "B" : "A") +
        first.requestState.slice(41);
      await assert.rejects(retry(args, bad), /Invalid or expired requestState/);
      // Another caller (another client name) bringing this caller's state and handle.
      const thief = ModernClient.create({
        mode: "pin",
        capabilities: { elicitation: { form: {} } },
        info: { name: "thief", version: "1" },
      });
      await using t = await ModernClient.http(server.mcpUrl, { mode: "pin", client: thief });
      const stolen = await retry(args, first.requestState, thief);
      assert.equal(stolen.isError, true);
      assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "nothing ran");
      // The caller itself, with the answer: it runs.
      const done = await retry(args, first.requestState);
      assert.notEqual(done.isError, true, JSON.stringify(done));
      await until(() => Deno.stat(marker).then(() => true, () => false), (ran) => ran);
      void t;
    } finally {
      await removePolicyFile(policy);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
