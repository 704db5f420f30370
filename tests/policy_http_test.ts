import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Client, ElicitRequestSchema } from "./helpers/sdk_client.ts";
import { StreamableHTTPClientTransport } from "./helpers/sdk_http_client.ts";
import { CallToolResultSchema } from "./helpers/sdk_client.ts";
import { until } from "./helpers/harness.ts";

/** Over HTTP the question goes to the MCP session that asked; the tmux bridge's input is judged too. */
type Session = { client: Client; asked: string[]; name: string };

async function session(server: HttpMcpServer, name: string): Promise<Session> {
  const client = new Client({ name, version: "1" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { decision: "session" } };
  });
  await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
  return { client, asked, name };
}

async function call(s: Session, name: string, args: Record<string, unknown>) {
  const result = CallToolResultSchema.parse(await s.client.callTool({ name, arguments: args }));
  const first = result.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
}

Deno.test({
  name: "over HTTP: each MCP session is asked its own questions and keeps its own allowances",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    await Deno.writeTextFile(
      `${dir}/policy.json`,
      JSON.stringify({ default: "allow", deny: ["touch *"], ask: ["echo asked *"] }),
    );
    await using server = await HttpMcpServer.start({ dir, flags: ["--policy", `${dir}/policy.json`] });
    const a = await session(server, "first");
    const b = await session(server, "second");
    try {
      const paneOf = async (s: Session) => JSON.parse((await call(s, "create_pane", {})).text).pane_id as string;
      const paneA = await paneOf(a);
      const paneB = await paneOf(b);
      const ranA = await call(a, "execute_command", { pane_id: paneA, command: "echo asked here" });
      assert.equal(ranA.isError, false, ranA.text);
      assert.equal(JSON.parse(ranA.text).output, "asked here");
      assert.equal(a.asked.length, 1);
      assert.equal(b.asked.length, 0, "the other session was asked");
      // A's "allow for the session" is A's: B is asked for the same command.
      await call(a, "execute_command", { pane_id: paneA, command: "echo asked here" });
      assert.equal(a.asked.length, 1);
      const ranB = await call(b, "execute_command", { pane_id: paneB, command: "echo asked here" });
      assert.equal(ranB.isError, false, ranB.text);
      assert.equal(b.asked.length, 1);
      assert.equal(a.asked.length, 1);

      // The tmux bridge on the same listener: no one to ask; a denied line is refused with 403, nothing typed.
      const bridge = (body: unknown) =>
        fetch(`${server.url}/v1/tmux`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      assert.equal((await bridge({ action: "create_session", session: "b" })).status, 200);
      const refused = await bridge({ action: "send_keys", session: "b", text: `touch ${dir}/ran`, enter: true });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.match(JSON.stringify(refused.body), /POLICY_DENIED/);
      const fine = await bridge({ action: "send_keys", session: "b", text: "printf 'bridge-%s\\n' 42", enter: true });
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
      await until(
        () => bridge({ action: "capture_pane", session: "b" }),
        (r) => String(r.body.output).includes("bridge-42"),
      );
      const screen = await bridge({ action: "capture_pane", session: "b" });
      assert.ok(!String(screen.body.output).includes("touch"), screen.body.output);
      assert.equal(await Deno.stat(`${dir}/ran`).then(() => true, () => false), false);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  },
});
