import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

// Found by the soak: a state directory gathers a log per pane (thousands within the retention
// days), and log retention listed the whole log directory once per log (quadratic), before a new
// server's first pane: after 30 minutes of the mix a new stdio server's first create_pane took
// over 35 s. Retention now lists the directory once, and runs beside the first pane.

const LOGS = 3000;

Deno.test("a state directory with thousands of logs: the first pane at once, old logs pruned, recent ones kept", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const logs = `${dir}/state/logs`;
  await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
  const month = new Date(Date.now() - 30 * 86_400_000);
  const lines: string[] = [];
  for (let i = 0; i < LOGS; i++) {
    const path = `${logs}/1-${i}-old${i % 2 === 0 ? "x" : "y"}.log`;
    const segment = `${path}.0000000000000000`;
    await Deno.writeTextFile(segment, `line ${i}\n`);
    await Deno.symlink(segment.slice(logs.length + 1), path);
    if (i % 2 === 0) await Deno.utime(segment, month, month); // even: a month old
    lines.push(JSON.stringify({
      pane_id: `%${i}`,
      name: null,
      session: "gone",
      socket: null,
      owner_pid: 1,
      created: month.toISOString(),
      path,
    }));
  }
  await Deno.writeTextFile(`${logs}/registry.jsonl`, lines.join("\n") + "\n");

  await using server = await TestServer.start({ dir });
  const started = performance.now();
  await server.call("create_pane", {});
  const ms = performance.now() - started;
  assert.ok(ms < 5_000, `the first pane took ${ms.toFixed(0)} ms beside ${LOGS} logs`);

  const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);
  // Retention ends by rewriting the registry without the lines of the logs it removed.
  await until(() => Deno.readTextFile(`${logs}/registry.jsonl`), (text) => !text.includes("-oldx.log"), 30_000);
  for (const i of [0, 2, 1000, LOGS - 2]) {
    assert.equal(await exists(`${logs}/1-${i}-oldx.log`), false, `old log ${i} removed`);
    assert.equal(await exists(`${logs}/1-${i}-oldx.log.0000000000000000`), false, `old segment ${i} removed`);
  }
  for (const i of [1, 3, 1001, LOGS - 1]) {
    assert.equal(await Deno.readTextFile(`${logs}/1-${i}-oldy.log`), `line ${i}\n`, `recent log ${i} kept`);
  }
  const registry = (await Deno.readTextFile(`${logs}/registry.jsonl`)).trim().split("\n");
  assert.equal(registry.filter((line) => line.includes("-oldx.log")).length, 0);
  assert.equal(registry.filter((line) => line.includes("-oldy.log")).length, LOGS / 2);
});
