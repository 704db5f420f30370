import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

// Found by the randomized stress under load: send_keys/paste_text with `wait: ["shell"]` saw the
// shell at its prompt again (a builtin like `echo` is done in a millisecond) before the output it
// printed had reached the pane's log, and returned `already: true` with an empty output. Here the
// log writer is held back, as a loaded machine or a host's link does: the wait must still end
// with what the line printed, on the shell's next prompt mark.

/** Every process whose command line holds `needle`, and their children (the writer's `dd`). */
async function processesOf(needle: string): Promise<number[]> {
  const found = new Set<number>();
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    try {
      const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`);
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (cmdline.includes(needle) && cmdline.includes("tmuxwright-log")) found.add(pid);
    } catch { /* gone */ }
  }
  for (const [pid, parent] of parents) if (found.has(parent)) found.add(pid);
  return [...found];
}

Deno.test("a shell wait ends with what the line printed even when the pane's log comes late", async () => {
  await using server = await TestServer.start();
  for (const tool of ["send_keys", "paste_text"]) {
    const pane = await server.call<{ pane_id: string }>("create_pane", {});
    await server.call("execute_command", { pane_id: pane.pane_id, command: "true" }); // the shell is drawn
    const writers = await processesOf(`${server.dir}/state`);
    assert.ok(writers.length > 0, "the pane's log writer is running");
    for (const pid of writers) Deno.kill(pid, "SIGSTOP");
    const resume = setTimeout(() => {
      for (const pid of writers) Deno.kill(pid, "SIGCONT");
    }, 700);
    try {
      const sent = await server.call<{ trigger: string; output: string; already?: boolean }>(tool, {
        pane_id: pane.pane_id,
        text: `echo late-${tool}`,
        enter: true,
        wait: ["shell"],
        timeout_ms: 10_000,
      });
      assert.equal(sent.trigger, "shell");
      assert.equal(sent.already, undefined, `${tool}: ${JSON.stringify(sent)}`);
      assert.match(sent.output, new RegExp(`^late-${tool}$`, "m"), `${tool}: ${JSON.stringify(sent)}`);
    } finally {
      clearTimeout(resume);
      for (const pid of writers) Deno.kill(pid, "SIGCONT");
    }
    await server.call("kill_pane", { pane_id: pane.pane_id });
  }
});
