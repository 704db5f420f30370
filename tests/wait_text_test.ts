import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { shellPane } from "./helpers/shell_pane.ts";

type Wait = { matched: boolean; line?: string; from?: string; elapsed_ms: number; last_lines?: string[] };

Deno.test("wait_for_text ignores text on screen and in the typed command's echo, then matches new output", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  await server.call("send_keys", { pane_id: pane, text: "echo READY" });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
    (c) => c.text.split("\n").includes("READY"),
  );

  // The wait starts before the keys are sent, so the echo of the command line reaches it as new output.
  const waiting = server.call<Wait>("wait_for_text", { pane_id: pane, pattern: "READY", timeout_ms: 10_000 });
  await server.call("send_keys", {
    pane_id: pane,
    text: `python3 -c "import time; time.sleep(.3); print('READY')"`,
  });
  const result = await waiting;
  assert.equal(result.matched, true);
  assert.equal(result.line, "READY");
  assert.equal(result.from, "output");
  assert.ok(result.elapsed_ms >= 250, `matched after ${result.elapsed_ms} ms: too early to be the print`);

  // The usual order: send first, then wait.
  await server.call("send_keys", {
    pane_id: pane,
    text: `python3 -c "import time; time.sleep(.3); print('READY' + '2')"`,
  });
  const second = await server.call<Wait>("wait_for_text", { pane_id: pane, pattern: "READY2", timeout_ms: 10_000 });
  assert.equal(second.line, "READY2", server.stderr.join("") + JSON.stringify(second));

  const screen = await server.call<Wait>("wait_for_text", { pane_id: pane, pattern: "READY2", since: "screen" });
  assert.equal(screen.matched, true);
  assert.equal(screen.from, "screen");
});

Deno.test("wait_for_text: regex alternation, text split across writes and UTF-8 split across chunks", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  await server.call("send_keys", { pane_id: pane, text: "sleep 0.2; echo build FAILED" });
  const alt = await server.call<Wait>("wait_for_text", {
    pane_id: pane,
    pattern: "build (DONE|FAILED)$",
    regex: true,
    timeout_ms: 10_000,
  });
  assert.equal(alt.line, "build FAILED");

  const split = "import sys,time\n" +
    "w=sys.stdout.buffer\n" +
    "w.write(b'caf\\xc3'); w.flush(); time.sleep(.2)\n" +
    "w.write(b'\\xa9 REA'); w.flush(); time.sleep(.2)\n" +
    "w.write(b'DY\\n'); w.flush()\n";
  await Deno.writeTextFile(`${server.dir}/split.py`, split);
  await server.call("send_keys", { pane_id: pane, text: `python3 ${server.dir}/split.py` });
  const joined = await server.call<Wait>("wait_for_text", { pane_id: pane, pattern: "café READY", timeout_ms: 10_000 });
  assert.equal(joined.line, "café READY", JSON.stringify(joined));
});

Deno.test("wait_for_text: a timeout is an outcome with the last lines", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  await server.call("send_keys", { pane_id: pane, text: "echo visible-line" });
  await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
    (c) => c.text.split("\n").includes("visible-line"),
  );
  const result = await server.call<Wait & { timed_out: boolean }>("wait_for_text", {
    pane_id: pane,
    pattern: "visible-line",
    timeout_ms: 400,
  });
  assert.equal(result.matched, false);
  assert.equal(result.timed_out, true);
  assert.ok(result.elapsed_ms >= 380 && result.elapsed_ms < 3000, `elapsed ${result.elapsed_ms}`);
  assert.ok(result.last_lines!.includes("visible-line"), JSON.stringify(result.last_lines));
  const bad = await server.callError("wait_for_text", { pane_id: pane, pattern: "(", regex: true });
  assert.match(bad, /INVALID_ARGUMENT: Invalid regex/);
});
