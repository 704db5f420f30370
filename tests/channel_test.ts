import assert from "node:assert/strict";
import * as z from "zod";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH, shellPane } from "./helpers/shell_pane.ts";

const ChannelNotificationSchema = z.object({
  method: z.literal("notifications/claude/channel"),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()) }),
});

Deno.test("--channel: watch_pane and start_process triggers are pushed as notifications/claude/channel", async () => {
  await using server = await TestServer.start({ args: ["--channel", "--tool-prefix", "tw_"] });
  assert.deepEqual(server.client.getServerCapabilities()?.experimental, { "claude/channel": {} });
  assert.match(server.client.getInstructions() ?? "", /<channel>/);
  const pushes = server.listen(ChannelNotificationSchema);

  const { pane_id } = await server.call<{ pane_id: string }>("tw_create_pane", { name: "svc", command: PLAIN_BASH });
  await until(() => server.call<{ at_shell_prompt: boolean }>("tw_pane_state", { pane_id }), (s) => s.at_shell_prompt);
  await server.call("tw_send_keys", { pane_id, text: "sleep 0.3; echo READY-$((40+2))" });
  const watched = await server.call<{ trigger: string }>("tw_watch_pane", {
    pane_id,
    triggers: ["pattern:READY-\\d+"],
    timeout_ms: 10_000,
  });
  assert.equal(watched.trigger, "pattern:READY-\\d+");
  await until(() => pushes.length, (n) => n >= 1);
  assert.deepEqual(pushes[0].params.meta, {
    pane_id,
    pane_name: "svc",
    event: "pattern:READY-\\d+",
    detail: "READY-42",
    tool: "tw_watch_pane",
  });
  assert.equal(pushes[0].params.content, `tw_watch_pane: pane ${pane_id} ("svc"): pattern:READY-\\d+: READY-42`);

  // start_process: ready, then an exit long after the call returned, with its exit code.
  const started = await server.call<{ pane_id: string; outcome: string }>("tw_start_process", {
    command: "sleep 0.2; echo up-and-ready; sleep 0.5; exit 3",
    name: "job",
    ready: "up-and-ready",
  });
  assert.equal(started.outcome, "ready");
  await until(() => pushes.length, (n) => n >= 3);
  assert.deepEqual(pushes.slice(1).map((p) => p.params.meta), [
    { pane_id: started.pane_id, pane_name: "job", event: "ready", detail: "up-and-ready", tool: "tw_start_process" },
    {
      pane_id: started.pane_id,
      pane_name: "job",
      event: "exit",
      detail: "the process exited with status 3",
      exit_code: "3",
      tool: "tw_start_process",
    },
  ]);

  // A process the agent stops itself is not news; one that exits on its own is.
  const stopped = await server.call<{ pane_id: string }>("tw_start_process", { command: "sleep 60", name: "stopme" });
  assert.equal(
    (await server.call<{ stopped: boolean }>("tw_stop_process", { pane_id: stopped.pane_id })).stopped,
    true,
  );
  const other = await server.call<{ pane_id: string }>("tw_start_process", { command: "sleep 0.3; false" });
  await until(() => pushes.length, (n) => n >= 4);
  assert.deepEqual(pushes.slice(3).map((p) => [p.params.meta.pane_id, p.params.meta.event, p.params.meta.exit_code]), [
    [other.pane_id, "exit", "1"],
  ]);
});

Deno.test("without --channel: no channel capability and no pushes", async () => {
  await using server = await TestServer.start();
  assert.equal(server.client.getServerCapabilities()?.experimental, undefined);
  assert.doesNotMatch(server.client.getInstructions() ?? "", /<channel>/);
  const pushes = server.listen(ChannelNotificationSchema);
  const pane = await shellPane(server);
  await server.call("send_keys", { pane_id: pane, text: "sleep 0.2; echo fired" });
  assert.equal(
    (await server.call<{ fired: boolean }>("watch_pane", { pane_id: pane, triggers: ["pattern:fired"] })).fired,
    true,
  );
  await server.client.ping();
  assert.deepEqual(pushes, []);
});
