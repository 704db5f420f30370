import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";

type Ref = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

async function complete(server: TestServer, ref: Ref, name: string, value: string, context?: Record<string, string>) {
  const { completion } = await server.client.complete({
    ref,
    argument: { name, value },
    ...(context ? { context: { arguments: context } } : {}),
  });
  return completion;
}

const prompt = (name: string): Ref => ({ type: "ref/prompt", name });

Deno.test("completion: live pane names and ids, sessions and windows, filtered by the typed prefix", async () => {
  await using server = await TestServer.start();
  const web = (await server.call<{ pane_id: string }>("create_pane", { name: "web", command: PLAIN_BASH })).pane_id;
  const worker = (await server.call<{ pane_id: string }>("create_pane", { name: "Worker", command: PLAIN_BASH }))
    .pane_id;
  const user = (await server.tmux("new-session", "-d", "-s", "api", "-P", "-F", "#{pane_id} #{window_id}", PLAIN_BASH))
    .stdout.trim().split(" ");
  const other = (await server.tmux("new-session", "-d", "-s", "app-2", "-P", "-F", "#{pane_id}", PLAIN_BASH)).stdout
    .trim();

  // Names first (case-insensitive prefix), ids after; the workspace's hub pane is never offered.
  assert.deepEqual((await complete(server, prompt("run_and_wait"), "pane_id", "w")).values, ["web", "Worker"]);
  const all = await complete(server, prompt("interrupt_gracefully"), "pane_id", "");
  assert.deepEqual(all.values, [
    "web",
    "Worker",
    ...[web, worker, user[0], other].sort((a, b) => +a.slice(1) - +b.slice(1)),
  ]);
  assert.equal(all.total, 6);
  assert.deepEqual((await complete(server, prompt("interrupt_gracefully"), "pane_id", "%")).values.length, 4);

  // Resource templates complete pane_id too.
  const uri = { type: "ref/resource", uri: "tmux://panes/{pane_id}/content" } as const;
  assert.deepEqual((await complete(server, uri, "pane_id", "We")).values, ["web"]);

  const sessions = await complete(server, prompt("diagnose_failing_pane"), "session", "ap");
  assert.deepEqual(sessions.values, ["api", "app-2"]);
  assert.deepEqual((await complete(server, prompt("diagnose_failing_pane"), "session", "$")).values.length, 3);

  // A session chosen in the same form narrows panes and windows.
  const narrowed = await complete(server, prompt("diagnose_failing_pane"), "pane_id", "", { session: "api" });
  assert.deepEqual(narrowed.values, [user[0]]);
  const windows = await complete(server, prompt("debug_with_panes"), "window", "api");
  assert.deepEqual(windows.values, ["api:0"]);
  assert.deepEqual(
    (await complete(server, prompt("build_dev_workspace"), "window", "@")).values.includes(user[1]),
    true,
  );

  // Arguments that are not names complete to nothing; unknown references are errors.
  assert.deepEqual((await complete(server, prompt("run_and_wait"), "command", "ls")).values, []);
  await assert.rejects(complete(server, { type: "ref/resource", uri: "file:///etc" }, "x", ""), /Nothing to complete/);
  await assert.rejects(complete(server, prompt("no_such_prompt"), "pane_id", ""), /no prompt "no_such_prompt"/);
});

Deno.test("completion: answers are bounded to 50 values, with the total", async () => {
  await using server = await TestServer.start();
  await server.call("list_panes");
  // 60 sessions made by tmux in one command line.
  const commands = Array.from({ length: 60 }, (_, i) => ["new-session", "-d", "-s", `s${i}`, PLAIN_BASH, ";"]).flat();
  await server.tmux(...commands.slice(0, -1));
  const completion = await complete(server, prompt("diagnose_failing_pane"), "session", "s");
  assert.equal(completion.values.length, 50);
  assert.equal(completion.total, 60);
  assert.equal(completion.hasMore, true);
  assert.deepEqual((await complete(server, prompt("diagnose_failing_pane"), "session", "s5")).values.length, 11);
});
