import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { TestServer, until } from "./helpers/harness.ts";
import type { LogTail } from "./helpers/results.ts";
import { LogFollower } from "../src/engine/output/follower.ts";
import { segmentPath } from "../src/engine/output/rotation.ts";

type Tail = LogTail;

Deno.test("logs rotate by size, keep N files, and reads report the rotated boundary", async () => {
  await using server = await TestServer.start({ args: ["--log-max-bytes", "4K", "--log-keep", "2"] });
  const created = await server.call<{ pane_id: string }>("create_pane", { command: "seq -f 'line %g' 1 3000" });
  await until(
    () => server.call<Tail>("read_logs", { pane_id: created.pane_id, lines: 1 }),
    (t) => t.content === "line 3000",
    20_000,
  );
  const tail = await server.call<Tail>("read_logs", { pane_id: created.pane_id, lines: 5 });
  assertEquals(tail.content, "line 2996\nline 2997\nline 2998\nline 2999\nline 3000");
  const total = tail.next_byte; // every byte the pane wrote, numbered from its first
  const expected = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\r\n`).join("");
  assertEquals(total, expected.length);

  const files = [...Deno.readDirSync(join(server.dir, "state", "logs"))]
    .map((e) => e.name).filter((n) => n.startsWith(tail.log_path.split("/").pop()! + ".")).sort();
  assertEquals(files.length, 3, `2 full segments kept + the active one: ${files}`);
  const firstKept = Math.floor(total / 4096 - 2) * 4096;
  assertEquals(files[0].endsWith(String(firstKept).padStart(16, "0")), true);

  // From byte 0: the read starts at the oldest kept byte and says what was rotated away.
  const chunk = await server.call<Tail & { from_byte: number; eof: boolean }>("read_logs", {
    pane_id: created.pane_id,
    from_byte: 0,
    max_bytes: 1_000_000,
  });
  assertEquals(chunk.from_byte, firstKept);
  assertEquals(chunk.rotated?.first_byte, firstKept);
  assertEquals(chunk.rotated?.limit_bytes, 3 * 4096);
  assertEquals(chunk.content, expected.slice(firstKept));
  assertEquals(chunk.eof, true);

  const all = await server.call<Tail>("read_logs", { pane_id: created.pane_id, lines: 10_000 });
  assertEquals(all.truncated, true);
  assert(all.rotated !== undefined);
  assertEquals(all.content.split("\n").at(-1), "line 3000");
});

Deno.test("LogFollower delivers bytes across rotated segment files in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "twfollow" });
  const follower = new LogFollower(dir);
  try {
    const log = join(dir, "p.log");
    await Deno.writeTextFile(segmentPath(log, 0), "abcd");
    let seen = "";
    const handle = follower.follow(log, 2, (bytes) => seen += new TextDecoder().decode(bytes));
    await until(() => Promise.resolve(seen), (s) => s === "cd");
    await Deno.writeTextFile(segmentPath(log, 4), "ef");
    await until(() => Promise.resolve(seen), (s) => s === "cdef");
    await Deno.writeTextFile(segmentPath(log, 4), "gh", { append: true });
    await until(() => Promise.resolve(seen), (s) => s === "cdefgh");
    assertEquals(handle.offset, 8);
    handle.close();
  } finally {
    follower.close();
    await Deno.remove(dir, { recursive: true });
  }
});
