import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import { ResourceUpdatedNotificationSchema } from "./helpers/sdk_client.ts";

// The pane resources over real OpenSSH: a remote pane is listed, read and subscribed as NAME:%N,
// and resources/list names the same panes as list_panes.

/** The text of a resource (every resource here is text). */
async function read(server: TestServer, uri: string): Promise<string> {
  const [first] = (await server.client.readResource({ uri })).contents;
  return "text" in first ? first.text : "";
}

const uriOf = (pane: string, kind = "") => `tmux://panes/${encodeURIComponent(pane)}${kind}`;

Deno.test({
  name: "resources: remote panes listed, read and subscribed as NAME:%N; the same panes as list_panes",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    await using server = await labServer(lab, ["alpha", "beta"], { dir });
    const local = await server.call<{ pane_id: string }>("create_pane", { name: "here" });
    const web = await server.call<{ pane_id: string }>("create_pane", { host: "alpha", name: "web" });
    await server.call("execute_command", { pane_id: web.pane_id, command: "echo RESOURCE-$((6*7))" });

    const listed = (await server.client.listResources()).resources.map((r) => r.uri);
    assert.ok(listed.includes(uriOf(web.pane_id)), listed.join("\n"));
    assert.ok(listed.includes(uriOf(web.pane_id, "/content")));
    assert.ok(listed.includes(uriOf(web.pane_id, "/log")));
    assert.ok(listed.includes(uriOf(local.pane_id)));

    // resources/list and list_panes name the same panes, on every host in use.
    const panes = (await server.call<{ panes: { pane_id: string }[] }>("list_panes")).panes.map((p) => p.pane_id);
    const fromResources = listed.filter((u) => /^tmux:\/\/panes\/[^/]+$/.test(u))
      .map((u) => decodeURIComponent(u.slice("tmux://panes/".length)));
    assert.deepEqual(fromResources.toSorted(), panes.toSorted());

    // Read by id and by name on the host.
    const facts = JSON.parse(await read(server, uriOf(web.pane_id)));
    assert.equal(facts.pane_id, web.pane_id);
    assert.equal(facts.host, "alpha");
    assert.equal(facts.content_uri, uriOf(web.pane_id, "/content"));
    assert.match(await read(server, uriOf("alpha:web", "/content")), /^RESOURCE-42$/m);
    assert.match(await read(server, uriOf(web.pane_id, "/log")), /RESOURCE-42/);
    const sessions = JSON.parse(await read(server, "tmux://sessions"));
    const all = sessions.sessions.flatMap((s: { windows: { panes: { pane_id: string }[] }[] }) =>
      s.windows.flatMap((w) => w.panes.map((p) => p.pane_id))
    );
    assert.ok(all.includes(web.pane_id) && all.includes(local.pane_id), JSON.stringify(all));

    // A subscription to the remote pane's content is told of new output.
    const updates = server.listen(ResourceUpdatedNotificationSchema);
    await server.client.subscribeResource({ uri: uriOf(web.pane_id, "/content") });
    await server.call("send_keys", { pane_id: web.pane_id, text: "echo again", enter: true });
    await until(() => updates.length, (n) => n > 0);
    assert.equal(updates[0].params.uri, uriOf(web.pane_id, "/content"));

    // A host that is not configured is refused, not guessed at.
    const refused = await server.client.readResource({ uri: uriOf("nowhere:%1") }).then(
      () => null,
      (error: Error) => error.message,
    );
    assert.match(refused ?? "", /not configured/);
  },
});
