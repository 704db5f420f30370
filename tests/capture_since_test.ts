import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { PLAIN_BASH, shellPane } from "./helpers/shell_pane.ts";

type Since = { text: string; pending: string; cursor: string; lines_missed: boolean; first: boolean };

/** Runs three rounds of output (the second scrolls far past the screen) and checks each line comes back once. */
async function threeRounds(server: TestServer, pane: string, send: (text: string) => Promise<void>) {
  const first = await server.call<Since>("capture_since", { pane_id: pane });
  assert.equal(first.first, true);
  let cursor = first.cursor;
  const seen: string[] = [];
  for (const [round, count] of [[1, 3], [2, 150], [3, 4]]) {
    await send(`seq -f 'r${round}-%g' 1 ${count}`);
    const next = await until(
      () => server.call<Since>("capture_since", { cursor }),
      (r) => r.text.split("\n").includes(`r${round}-${count}`),
    );
    assert.equal(next.lines_missed, false, `round ${round}: ${JSON.stringify(next)}`);
    const lines = next.text.split("\n").filter((l) => /^r\d+-\d+$/.test(l));
    assert.deepEqual(lines, Array.from({ length: count }, (_, i) => `r${round}-${i + 1}`), `round ${round}`);
    seen.push(...lines);
    cursor = next.cursor;
  }
  assert.equal(new Set(seen).size, 157);
  const quiet = await server.call<Since>("capture_since", { cursor });
  assert.equal(quiet.text.split("\n").filter((l) => /^r\d+-\d+$/.test(l)).length, 0, quiet.text);
  return cursor;
}

Deno.test("capture_since on an owned pane returns each new line exactly once over three rounds", async () => {
  await using server = await TestServer.start();
  const pane = await shellPane(server);
  await threeRounds(server, pane, async (text) => void await server.call("send_keys", { pane_id: pane, text }));
  await server.call("send_keys", { pane_id: pane, text: "exit 4" });
  const cursor = (await server.call<Since>("capture_since", { pane_id: pane })).cursor;
  await until(() => server.call<{ alive: boolean }>("pane_state", { pane_id: pane }), (s) => !s.alive);
  // The pane has exited: the cursor still reads (what it wrote last is checked in wait_pane_end_test.ts).
  assert.equal(typeof (await server.call<Since>("capture_since", { cursor })).text, "string");
  assert.match(await server.callError("capture_since", { cursor: "tw1.nonsense" }), /INVALID_ARGUMENT/);
});

Deno.test("capture_since on a user's pane (tmux history rows) and a respawned pane's cursor is rejected", async () => {
  await using server = await TestServer.start();
  await server.call("list_panes");
  const made = await server.tmux(
    "new-session",
    "-d",
    "-s",
    "user",
    "-x",
    "80",
    "-y",
    "20",
    "-P",
    "-F",
    "#{pane_id}",
    PLAIN_BASH,
  );
  const pane = made.stdout.trim();
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: pane }),
    (s) => s.at_shell_prompt,
  );
  const cursor = await threeRounds(server, pane, async (text) => {
    await server.tmux("send-keys", "-t", pane, "-l", text);
    await server.tmux("send-keys", "-t", pane, "Enter");
  });
  await server.tmux("respawn-pane", "-k", "-t", pane);
  assert.match(await server.callError("capture_since", { cursor }), /Cursor rejected: pane %\d+ was respawned/);
});

Deno.test("capture_since on an owned pane stays exact across log rotation", async () => {
  // 4 KiB segments: each round of 1,500 lines (about 10 KiB) spans several files.
  await using server = await TestServer.start({ args: ["--log-max-bytes", "4K", "--log-keep", "50"] });
  const pane = await shellPane(server);
  let cursor = (await server.call<Since>("capture_since", { pane_id: pane })).cursor;
  for (const round of [1, 2]) {
    await server.call("send_keys", { pane_id: pane, text: `seq -f 'q${round}-%g' 1 1500` });
    const next = await until(
      () => server.call<Since>("capture_since", { cursor }),
      (r) => r.text.split("\n").includes(`q${round}-1500`),
    );
    const lines = next.text.split("\n").filter((l) => /^q\d+-\d+$/.test(l));
    assert.deepEqual(lines, Array.from({ length: 1500 }, (_, i) => `q${round}-${i + 1}`), `round ${round}`);
    cursor = next.cursor;
  }
});
