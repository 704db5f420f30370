import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import type { LogTail } from "./helpers/results.ts";

type Tail = LogTail;
interface Chunk {
  content: string;
  next_byte: number;
  eof: boolean;
}

async function exited(server: TestServer, paneId: string): Promise<void> {
  await until(
    () => server.call<{ panes: { pane_id: string; status: string }[] }>("list_panes", {}),
    (r) => r.panes.some((p) => p.pane_id === paneId && p.status === "exited"),
    20_000,
  );
}

/** Streams a whole log in chunks through read_logs byte mode. */
async function stream(server: TestServer, pane: string, from: number, size: number): Promise<[string, number]> {
  let text = "";
  let at = from;
  for (;;) {
    const chunk = await server.call<Chunk>("read_logs", { pane_id: pane, from_byte: at, max_bytes: size });
    assert(chunk.content.length <= size);
    text += chunk.content;
    at = chunk.next_byte;
    if (chunk.eof) return [text, at];
  }
}

const expectedLines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

Deno.test("read_logs returns exactly the last N lines, also after kill_pane, and streams bytes exactly", async () => {
  await using server = await TestServer.start();
  const created = await server.call<{ pane_id: string }>("create_pane", {
    name: "counter",
    command: "seq -f 'line %g' 1 20000",
  });
  await exited(server, created.pane_id);

  const tail = await server.call<Tail>("read_logs", { pane_id: "counter", lines: 100 });
  assertEquals(tail.content.split("\n"), expectedLines(19901, 20000));
  assertEquals(tail.returned_lines, 100);
  assertEquals(tail.truncated, true);

  const all = await server.call<Tail>("read_logs", { pane_id: created.pane_id, lines: 10_000 });
  assertEquals(all.returned_lines, 10_000);
  assertEquals(all.content.split("\n")[0], "line 10001");

  const [streamed, end] = await stream(server, "counter", 0, 4096);
  const onDisk = await Deno.readTextFile(tail.log_path);
  assertEquals(streamed, onDisk);
  assertEquals(end, new TextEncoder().encode(onDisk).length);
  assertEquals(streamed.replaceAll("\r\n", "\n"), expectedLines(1, 20000).join("\n") + "\n");

  // Seeking backwards: a chunk from the middle, and from the end (negative from_byte).
  const middle = await server.call<Chunk>("read_logs", { pane_id: "counter", from_byte: 100, max_bytes: 50 });
  assertEquals(middle.content, onDisk.slice(100, 150));
  const last = await server.call<Chunk>("read_logs", { pane_id: "counter", from_byte: -12 });
  assertEquals(last.content, "line 20000\r\n");
  assertEquals(last.eof, true);

  await server.call("kill_pane", { pane_id: "counter" });
  for (const ref of ["counter", created.pane_id]) {
    const after = await server.call<Tail & { pane_gone: boolean }>("read_logs", { pane_id: ref, lines: 100 });
    assertEquals(after.content.split("\n"), expectedLines(19901, 20000));
    assertEquals(after.truncated, true);
    assertEquals(after.pane_gone, true);
  }
});

Deno.test("read_logs strips ANSI colours by default and keeps them on request", async () => {
  await using server = await TestServer.start();
  const created = await server.call<{ pane_id: string }>("create_pane", {
    command: "printf '\\033[31mred\\033[0m plain\\nprogress 10%%\\rprogress 100%%\\n'",
  });
  await exited(server, created.pane_id);
  const plain = await server.call<Tail>("read_logs", { pane_id: created.pane_id });
  assertEquals(plain.content, "red plain\nprogress 100%");
  assertEquals(plain.truncated, false);
  const coloured = await server.call<Tail>("read_logs", { pane_id: created.pane_id, strip_ansi: false });
  assert(coloured.content.includes("\x1b[31mred\x1b[0m plain"), coloured.content);
});

Deno.test("read_logs resumes from next_byte after a restart with --keep: no gap, no duplicate", async () => {
  const first = await TestServer.start({ args: ["--keep"] });
  const dir = first.dir;
  let second: TestServer | null = null;
  try {
    const created = await first.call<{ pane_id: string }>("create_pane", {
      name: "counter",
      command: "seq -f 'line %g' 1 5000; read x; seq -f 'line %g' 5001 10000",
    });
    await until(
      () => first.call<Tail>("read_logs", { pane_id: "counter", lines: 1 }),
      (t) => t.content === "line 5000",
      20_000,
    );
    const [part1, next] = await stream(first, "counter", 0, 4096);
    const logPath = (await first.call<Tail>("read_logs", { pane_id: "counter", lines: 1 })).log_path;
    await first.close(false);

    // The server is down: tmux alone keeps writing the log.
    assertEquals((await first.tmux("send-keys", "-t", created.pane_id, "go", "Enter")).code, 0);
    await until(() => Deno.readTextFile(logPath), (text) => text.includes("line 10000\r\n"), 20_000);

    second = await TestServer.start({ dir, args: ["--keep"] });
    const [part2] = await stream(second, "counter", next, 4096);
    const whole = await Deno.readTextFile(logPath);
    assertEquals(part1 + part2, whole);
    const lines = whole.split("\r\n").filter((l) => l.startsWith("line "));
    assertEquals(lines, expectedLines(1, 10000));
    // Killed after the restart: still found by name through the log registry.
    await second.tmux("kill-pane", "-t", created.pane_id);
    const tail = await second.call<Tail>("read_logs", { pane_id: "counter", lines: 2 });
    assertEquals(tail.content, "line 9999\nline 10000");
  } finally {
    await second?.close();
    await first.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
