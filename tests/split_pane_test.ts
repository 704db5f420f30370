import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

Deno.test("split_pane creates an owned, logged pane beside the source and returns its ids", async () => {
  await using server = await TestServer.start();
  const left = await server.call<{ pane_id: string; window_id: string }>("create_pane", { name: "left" });
  const right = await server.call<{ pane_id: string; window_id: string; name: string; split_from: string }>(
    "split_pane",
    { pane_id: "left", direction: "right", size: 30, name: "right", command: "echo split-ok; sleep 60" },
  );
  assert(/^%\d+$/.test(right.pane_id));
  assertEquals(right.window_id, left.window_id);
  assertEquals(right.name, "right");
  assertEquals(right.split_from, left.pane_id);
  const info = await server.tmux("display", "-p", "-t", right.pane_id, "#{pane_width} #{window_width} #{pane_left}");
  const [paneWidth, windowWidth, paneLeft] = info.stdout.trim().split(" ").map(Number);
  assert(paneLeft > 0, "the new pane is on the right");
  assert(Math.abs(paneWidth - windowWidth * 0.3) <= 2, info.stdout);
  const listed = await server.call<{ panes: { pane_id: string; owned: boolean }[] }>("list_panes", {
    owned_only: true,
  });
  assert(listed.panes.some((p) => p.pane_id === right.pane_id && p.owned));
  const log = await until(
    () => server.call<{ content: string }>("read_logs", { pane_id: "right", lines: 5 }),
    (r) => r.content.includes("split-ok"),
  );
  assertEquals(log.content, "split-ok");
  const bad = await server.callError("split_pane", { pane_id: "nope", direction: "below" });
  assert(bad.includes("PANE_NOT_FOUND"), bad);
});
