import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH, shellPane } from "./helpers/shell_pane.ts";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "./helpers/sdk_client.ts";

const contentUri = (pane: string) => `tmux://panes/${encodeURIComponent(pane)}/content`;

async function read(server: TestServer, uri: string): Promise<{ mimeType?: string; text: string }> {
  const { contents } = await server.client.readResource({ uri });
  assert.equal(contents.length, 1);
  assert.equal(contents[0].uri, uri);
  return { mimeType: contents[0].mimeType, text: "text" in contents[0] ? contents[0].text : "" };
}

async function readError(server: TestServer, uri: string): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await server.client.readResource({ uri });
  } catch (error) {
    const { code, data } = error as { code: number; data?: unknown };
    return { code, message: (error as Error).message, data };
  }
  throw new Error(`reading ${uri} was expected to fail`);
}

/** Control-mode clients attached to a session: the output tap of a subscribed user pane is one. */
async function controlClients(server: TestServer, session: string): Promise<number> {
  const { stdout } = await server.tmux("list-clients", "-F", "#{client_control_mode} #{session_name}");
  return stdout.split("\n").filter((line) => line === `1 ${session}`).length;
}

Deno.test("resources: list and read sessions, pane facts, content and log; URIs percent-encode pane ids", async () => {
  await using server = await TestServer.start();
  const web = await shellPane(server, "web");
  await server.call("send_keys", { pane_id: web, text: "echo resource-$((6*7))" });
  const user = (await server.tmux("new-session", "-d", "-s", "user", "-P", "-F", "#{pane_id}", PLAIN_BASH)).stdout
    .trim();

  const listed = (await server.client.listResources()).resources.map((r) => r.uri);
  for (
    const uri of [
      "tmux://sessions",
      `tmux://panes/%25${web.slice(1)}`,
      contentUri(web),
      `${contentUri(web)}/`
        .replace("/content/", "/log"),
      contentUri(user),
    ]
  ) assert.ok(listed.includes(uri), `${uri} not in ${JSON.stringify(listed)}`);
  assert.ok(!listed.includes(`tmux://panes/%25${user.slice(1)}/log`), "a pane without a log lists no log resource");
  const templates = (await server.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  assert.deepEqual(templates, [
    "tmux://panes/{pane_id}",
    "tmux://panes/{pane_id}/content",
    "tmux://panes/{pane_id}/log",
  ]);

  const sessions = await read(server, "tmux://sessions");
  assert.equal(sessions.mimeType, "application/json");
  const tree = JSON.parse(sessions.text) as {
    sessions: { name: string; windows: { window_id: string; panes: { pane_id: string; name: string | null }[] }[] }[];
  };
  const panes = tree.sessions.flatMap((s) => s.windows.flatMap((w) => w.panes));
  assert.deepEqual(panes.map((p) => p.pane_id).sort(), [web, user].sort(), "the workspace's hub pane is not shown");
  assert.ok(tree.sessions.some((s) => s.name === "user"));

  const facts = JSON.parse((await read(server, `tmux://panes/${encodeURIComponent(web)}`)).text);
  assert.equal(facts.pane_id, web);
  assert.equal(facts.name, "web");
  assert.equal(facts.status, "running");
  assert.equal(facts.owned, true);
  assert.equal(facts.content_uri, contentUri(web));
  const byName = JSON.parse((await read(server, "tmux://panes/web")).text);
  assert.equal(byName.pane_id, web, "a pane name works in place of the id");

  const content = await until(() => read(server, contentUri(web)), (c) => /^resource-42$/m.test(c.text));
  assert.equal(content.mimeType, "text/plain");
  const log = await until(() => read(server, "tmux://panes/web/log"), (l) => /^resource-42\r?$/m.test(l.text));
  assert.ok(!log.text.includes("\x1b["), "the log resource is plain text");
  assert.match((await read(server, contentUri(user))).text, /\$|#/);

  // The log outlives the pane.
  await server.call("kill_pane", { pane_id: web });
  assert.match((await read(server, "tmux://panes/web/log")).text, /resource-42/);

  const raw = await readError(server, `tmux://panes/${web}/content`);
  assert.equal(raw.code, -32602);
  assert.match(raw.message, /percent-encode the pane id.*tmux:\/\/panes\/%253/);
  const missing = await readError(server, "tmux://panes/nosuchpane/content");
  // Resource not found: -32602 with the URI as data (the SDK v2 sends 2026-07-28's code in both eras).
  assert.equal(missing.code, -32602);
  assert.deepEqual(missing.data, { uri: "tmux://panes/nosuchpane/content" });
  assert.match(missing.message, /PANE_NOT_FOUND: Pane "nosuchpane" not found.*list_panes/);
  const noLog = await readError(server, `tmux://panes/${encodeURIComponent(user)}/log`);
  assert.match(noLog.message, /has no log: only panes created by tmuxwright are logged/);
  assert.equal((await readError(server, "tmux://elsewhere")).code, -32602);
});

Deno.test("resources/subscribe: an update within 100 ms of new output, none after unsubscribe", async () => {
  await using server = await TestServer.start();
  const updates = server.listen(ResourceUpdatedNotificationSchema);
  const pane = await shellPane(server);
  const uri = contentUri(pane);
  await server.client.subscribeResource({ uri });

  const sent = performance.now();
  await server.tmux("send-keys", "-t", pane, "echo subscribed", "Enter");
  await until(() => updates.length, (n) => n > 0);
  assert.equal(updates[0].params.uri, uri);
  // Measured from before the outside tmux command that typed the text: an upper bound.
  assert.ok(updates[0].at - sent < 100 + 50, `update after ${Math.round(updates[0].at - sent)} ms`);

  // The same pane's log stays subscribed: its update proves new output was seen after the unsubscribe.
  const logUri = `tmux://panes/${encodeURIComponent(pane)}/log`;
  await server.client.subscribeResource({ uri: logUri });
  await server.client.unsubscribeResource({ uri });
  const before = updates.length;
  await server.tmux("send-keys", "-t", pane, "echo after-unsubscribe", "Enter");
  await until(() => updates.slice(before), (u) => u.some((n) => n.params.uri === logUri));
  assert.deepEqual(updates.slice(before).filter((n) => n.params.uri === uri), []);

  const refused = await server.client.subscribeResource({ uri: `tmux://panes/${encodeURIComponent(pane)}` })
    .then(() => null, (error: Error) => error.message);
  assert.match(refused ?? "", /pane facts are read on demand.*\/content/);
});

Deno.test("resources/subscribe on a user's pane uses an output tap that unsubscribing releases", async () => {
  await using server = await TestServer.start();
  const updates = server.listen(ResourceUpdatedNotificationSchema);
  const pane = (await server.tmux("new-session", "-d", "-s", "mine", "-P", "-F", "#{pane_id}", PLAIN_BASH)).stdout
    .trim();
  const uri = contentUri(pane);
  await server.client.subscribeResource({ uri });
  assert.equal(await controlClients(server, "mine"), 1, "a tap attached to the user's session");
  await server.tmux("send-keys", "-t", pane, "echo tapped", "Enter");
  await until(() => updates.length, (n) => n > 0);
  assert.equal(updates[0].params.uri, uri);

  await server.client.unsubscribeResource({ uri });
  await until(() => controlClients(server, "mine"), (n) => n === 0);
});

Deno.test("resources/subscribe: a flooding pane gets at most one update per 50 ms", async () => {
  await using server = await TestServer.start();
  const updates = server.listen(ResourceUpdatedNotificationSchema);
  const pane = await shellPane(server);
  await server.client.subscribeResource({ uri: contentUri(pane) });
  await server.call("send_keys", { pane_id: pane, text: "seq 1 400000; echo flood-done" });
  await until(() => read(server, contentUri(pane)), (c) => /^flood-done$/m.test(c.text), 30_000);
  await until(() => updates.at(-1)!.at, (last) => performance.now() - last > 200); // the trailing one arrived
  const spans = updates.slice(1).map((u, i) => u.at - updates[i].at);
  assert.ok(updates.length >= 2, `${updates.length} updates`);
  // Client-side arrival times jitter; the server spaces them 50 ms apart, so none arrive in a burst.
  const bursts = spans.filter((ms) => ms < 25).length;
  assert.ok(bursts <= spans.length / 10, `${bursts} of ${spans.length} gaps under 25 ms: ${spans.map(Math.round)}`);
  const seconds = (updates.at(-1)!.at - updates[0].at) / 1000;
  assert.ok(updates.length <= seconds * 20 + 3, `${updates.length} updates in ${seconds.toFixed(2)} s`);
});

Deno.test("resources: list_changed when panes appear or vanish, here or in another session", async () => {
  await using server = await TestServer.start();
  const changed = server.listen(ResourceListChangedNotificationSchema);
  const expectChange = async (action: () => Promise<unknown>) => {
    const seen = changed.length;
    await action();
    await until(() => changed.length, (n) => n > seen);
  };
  let pane = "";
  await expectChange(async () => {
    pane = (await server.call<{ pane_id: string }>("create_pane", { command: PLAIN_BASH })).pane_id;
  });
  await expectChange(() => server.call("kill_pane", { pane_id: pane }));

  // Sessions the control connection is not attached to: a split shows as a change of active pane;
  // closing a pane that is not the active one sends no notification at all (tmux's format
  // subscription catches it within a second).
  await expectChange(() => server.tmux("new-session", "-d", "-s", "other", PLAIN_BASH));
  await expectChange(() => server.tmux("split-window", "-t", "other:", PLAIN_BASH));
  const listed = (await server.client.listResources()).resources.filter((r) => r.uri.endsWith("/content"));
  assert.equal(listed.length, 2, JSON.stringify(listed));
  await expectChange(() => server.tmux("kill-pane", "-t", "other:.0"));
  await expectChange(() => server.tmux("kill-session", "-t", "other"));
});
