import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

Deno.test("paste_text runs a 24 KB heredoc in bash as one input and deletes its buffer", async () => {
  await using server = await TestServer.start();
  const pane = await server.call<{ pane_id: string }>("create_pane", {
    name: "sh",
    command: "bash --norc --noprofile",
  });
  const target = `${server.dir}/out.txt`;
  const body = Array.from(
    { length: 600 },
    (_, i) => `row ${String(i).padStart(4, "0")} ${"$HOME 'q' \"d\" `x` ;".repeat(2)}`,
  )
    .join("\n");
  assert(body.length > 24_000, `body is ${body.length} chars`);
  const script = `cat > '${target}' <<'EOF'\n${body}\nEOF\necho "done-$((6*7))"\n`;
  await server.call("paste_text", { pane_id: "sh", text: script, enter: true });
  await until(
    () => Deno.readTextFile(target).catch(() => ""),
    (text) => text === body + "\n",
    20_000,
  );
  const screen = await until(
    () => server.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id, lines: 5 }),
    (c) => c.text.includes("done-42"),
    10_000,
  );
  // Back at a normal prompt, not a `>` continuation prompt.
  assert(!/^> ?$/m.test(screen.text.split("\n").at(-1)!), screen.text);
  const buffers = await server.tmux("list-buffers", "-F", "#{buffer_name}");
  assertEquals(buffers.stdout.split("\n").filter((b) => b.startsWith("tmuxwright-")), []);
});

Deno.test("paste_text into a gone pane fails clearly and leaves no buffer", async () => {
  await using server = await TestServer.start();
  const pane = await server.call<{ pane_id: string }>("create_pane", { command: "bash --norc --noprofile" });
  await server.call("kill_pane", { pane_id: pane.pane_id });
  const error = await server.callError("paste_text", { pane_id: pane.pane_id, text: "echo hi\n" });
  assert(error.includes("PANE_NOT_FOUND"), error);
  const buffers = await server.tmux("list-buffers", "-F", "#{buffer_name}");
  assertEquals(buffers.stdout.split("\n").filter((b) => b.startsWith("tmuxwright-")), []);
});
