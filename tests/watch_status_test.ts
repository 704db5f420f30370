import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { TestServer } from "./helpers/harness.ts";
import { Client, ElicitRequestSchema } from "./helpers/sdk_client.ts";
import { StreamableHTTPClientTransport } from "./helpers/sdk_http_client.ts";
import { call } from "./helpers/watch_scene.ts";
import { WatchEvents } from "./helpers/watch_events.ts";

// A pane's state as /watch and pane_state show it (one function, src/engine/watch/pane_status.ts),
// and whose pane it is: the MCP client's name, stored on the pane.

type Pane = {
  pane_id: string;
  state: string;
  command: string | null;
  exit_code: number | null;
  needs_person: boolean;
  agent: { name: string; title: string | null } | null;
  question: string | null;
};

const SHELL = "bash --norc --noprofile";
const find = (panes: Pane[], id: string) => panes.find((p) => p.pane_id === id);

Deno.test("watch status: idle, running (what), waiting for input, exited N, gone; what needs a person; whose", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client({}, { name: "builder", title: "Build Agent", version: "1.0.0" });
  const idle = await call(client, "create_pane", { name: "idle", command: SHELL });
  const busy = await call(client, "create_pane", { name: "busy", command: SHELL });
  const asks = await call(client, "create_pane", { name: "asks", command: SHELL });
  const failed = await call(client, "create_pane", { name: "failed", command: "echo bye; exit 3" });
  const done = await call(client, "create_pane", { name: "done", command: "echo ok" });
  await call(client, "execute_command", { pane_id: busy.pane_id, command: "true" });
  await call(client, "send_keys", { pane_id: busy.pane_id, text: "sleep 30" });
  await call(client, "execute_command", { pane_id: asks.pane_id, command: "true" });
  await call(client, "send_keys", { pane_id: asks.pane_id, text: "read -p 'Continue? ' answer" });

  await using events = await WatchEvents.open(`${server.url}/watch/events?pane=${encodeURIComponent(busy.pane_id)}`);
  const expected: Record<string, Partial<Pane>> = {
    [idle.pane_id]: { state: "idle", command: "bash", needs_person: false },
    [busy.pane_id]: { state: "running", command: "sleep", needs_person: false },
    [asks.pane_id]: { state: "waiting", command: "bash", needs_person: true },
    [failed.pane_id]: { state: "exited", exit_code: 3, needs_person: true },
    [done.pane_id]: { state: "exited", exit_code: 0, needs_person: false },
  };
  const matches = (p: Pane | undefined, want: Partial<Pane>) =>
    p !== undefined && Object.entries(want).every(([k, v]) => p[k as keyof Pane] === v);
  const panes = await events.latest<Pane[]>(
    "panes",
    (list) => Object.entries(expected).every(([id, want]) => matches(find(list, id), want)),
  );
  for (const id of Object.keys(expected)) {
    assert.deepEqual(find(panes, id)!.agent, { name: "builder", title: "Build Agent" });
  }
  // pane_state answers from the same function.
  for (const [id, want] of Object.entries(expected)) {
    const state = await call(client, "pane_state", { pane_id: id });
    assert.ok(matches(state.status, want), `${id}: ${JSON.stringify(state.status)} vs ${JSON.stringify(want)}`);
  }

  // Answered: waiting becomes idle again. Gone: the pane leaves the list; its full-size stream says gone.
  await call(client, "send_keys", { pane_id: asks.pane_id, text: "yes" });
  await events.latest<Pane[]>("panes", (list) => find(list, asks.pane_id)?.state === "idle");
  await call(client, "kill_pane", { pane_id: busy.pane_id });
  await events.latest<Pane[]>("panes", (list) => find(list, busy.pane_id) === undefined);
  assert.deepEqual(await events.latest("gone", () => true), { pane_id: busy.pane_id });
  await client.close();
});

Deno.test("watch status: over stdio the client's name and title are stored on its panes; another server shows them", async () => {
  const client = new Client({ name: "stdio-agent", title: "Stdio Agent", version: "2.0.0" });
  await using stdio = await TestServer.start({ client });
  const pane = await stdio.call<{ pane_id: string }>("create_pane", { command: SHELL });
  const option = await stdio.tmux("show-options", "-p", "-v", "-t", pane.pane_id, "@tmuxwright_agent");
  assert.equal(option.stdout.trim(), "stdio-agent;Stdio%20Agent");
  await using http = await HttpMcpServer.start({ dir: stdio.dir });
  await using events = await WatchEvents.open(`${http.url}/watch/events`);
  const panes = await events.latest<Pane[]>("panes", (list) => find(list, pane.pane_id) !== undefined);
  assert.deepEqual(find(panes, pane.pane_id)!.agent, { name: "stdio-agent", title: "Stdio Agent" });
});

Deno.test({
  name: "watch status: a policy question pending marks its pane as needing a person until it is answered",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    await Deno.writeTextFile(`${dir}/policy.json`, JSON.stringify({ default: "allow", ask: ["echo asked *"] }));
    try {
      await using server = await HttpMcpServer.start({ dir, flags: ["--policy", `${dir}/policy.json`] });
      const client = new Client({ name: "reviewer", version: "1" }, { capabilities: { elicitation: {} } });
      // The question reaches /watch as it is sent: the answer waits until the client has it.
      type Reply = { action: "accept"; content: { decision: string } };
      const asked = Promise.withResolvers<(reply: Reply) => void>();
      client.setRequestHandler(ElicitRequestSchema, () => new Promise<Reply>((resolve) => asked.resolve(resolve)));
      await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
      const pane = await call(client, "create_pane", { command: SHELL });
      await using events = await WatchEvents.open(`${server.url}/watch/events`);
      await events.latest<Pane[]>("panes", (list) => find(list, pane.pane_id)?.state === "idle");
      const ran = call(client, "execute_command", { pane_id: pane.pane_id, command: "echo asked now" });
      const questions = await events.latest<{ pane_id: string; command: string; agent: string }[]>(
        "questions",
        (list) => list.length === 1,
      );
      assert.deepEqual(
        [questions[0].pane_id, questions[0].command, questions[0].agent],
        [pane.pane_id, "echo asked now", "reviewer"],
      );
      const marked = await events.latest<Pane[]>("panes", (list) => find(list, pane.pane_id)?.needs_person === true);
      assert.equal(find(marked, pane.pane_id)!.question, "echo asked now");
      assert.equal(find(marked, pane.pane_id)!.state, "idle");
      (await asked.promise)({ action: "accept", content: { decision: "once" } });
      assert.equal((await ran).output, "asked now");
      await events.latest<unknown[]>("questions", (list) => list.length === 0);
      await events.latest<Pane[]>("panes", (list) => find(list, pane.pane_id)?.needs_person === false);
      await client.close();
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
