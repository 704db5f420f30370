import { TestServer, until } from "/work/wt-mcpsurface/tests/helpers/harness.ts";
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "/work/wt-mcpsurface/tests/helpers/sdk_client.ts";
await using s = await TestServer.start({ args: ["--tool-prefix", "tmux_"] });
const updates = s.listen(ResourceUpdatedNotificationSchema);
const changed = s.listen(ResourceListChangedNotificationSchema);
const logs = s.listen(LoggingMessageNotificationSchema);
console.log(JSON.stringify(s.client.getServerCapabilities()));
const p = await s.call<{ pane_id: string }>("tmux_create_pane", { name: "web" });
console.log(p);
await until(async () => changed.length, (n) => n > 0).catch((e) => console.log("no list_changed", e.message));
console.log("list", JSON.stringify((await s.client.listResources()).resources.map((r) => r.uri)));
console.log(
  "templates",
  JSON.stringify((await s.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)),
);
const uri = `tmux://panes/${encodeURIComponent(p.pane_id)}/content`;
console.log((await s.client.readResource({ uri: "tmux://sessions" })).contents[0]);
console.log((await s.client.readResource({ uri: "tmux://panes/web" })).contents[0]);
await s.client.subscribeResource({ uri });
const t0 = performance.now();
await s.tmux("send-keys", "-t", p.pane_id, "echo hello", "Enter");
await until(async () => updates.length, (n) => n > 0);
console.log("update after", updates[0].at - t0, updates);
console.log((await s.client.readResource({ uri })).contents[0]);
try {
  await s.client.readResource({ uri: "tmux://panes/%3/content" });
} catch (e) {
  console.log("err", (e as Error).message);
}
try {
  await s.client.readResource({ uri: "tmux://panes/nope" });
} catch (e) {
  console.log("err", (e as Error).message);
}
console.log(
  JSON.stringify((await s.client.listPrompts()).prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])),
);
for (
  const [name, args] of [
    ["run_and_wait", { command: "make test", pane_id: "web" }],
    ["diagnose_failing_pane", {}],
    ["build_dev_workspace", { services: "web2: npm run dev\napi: cargo run", cwd: "/tmp" }],
    ["interrupt_gracefully", { pane_id: "web" }],
    ["debug_with_panes", {
      command: "python3 -m http.server",
      client_command: "curl localhost:8000",
      ready: "Serving",
    }],
  ] as const
) {
  const r = await s.client.getPrompt({ name, arguments: args as Record<string, string> });
  console.log("=====", name, "\n" + (r.messages[0].content as { text: string }).text);
}
console.log(
  await s.client.complete({
    ref: { type: "ref/prompt", name: "run_and_wait" },
    argument: { name: "pane_id", value: "w" },
  }),
);
console.log(
  await s.client.complete({
    ref: { type: "ref/resource", uri: "tmux://panes/{pane_id}/content" },
    argument: { name: "pane_id", value: "%" },
  }),
);
console.log(
  await s.client.complete({
    ref: { type: "ref/prompt", name: "debug_with_panes" },
    argument: { name: "window", value: "" },
  }),
);
console.log(
  await s.client.complete({
    ref: { type: "ref/prompt", name: "diagnose_failing_pane" },
    argument: { name: "session", value: "tm" },
  }),
);
console.log("logs", logs);
