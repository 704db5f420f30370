/**
 * How soon a wait in flight ends once its pane can no longer answer: wait_for_text (30 s asked)
 * on a pane killed from outside (`tmux kill-pane`), and on a pane whose program exits (its
 * `sleep` is ended, then `sh` exits with 3). Times run from the event (the tmux client started, or
 * the signal sent) to the answer. Prints the median and worst of N runs.
 *
 *   deno run -A scripts/bench_pane_end.ts [--runs 10]
 */
import { parseArgs } from "node:util";
import { TestServer } from "../tests/helpers/harness.ts";
import { median } from "./timing.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "10" } } });
const runs = Number(values.runs);

await using server = await TestServer.start();
const killed: number[] = [];
const exited: number[] = [];
for (let i = 0; i < runs; i++) {
  for (const how of ["kill", "exit"] as const) {
    const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {
      command: "sleep 600; exit 3",
    });
    const waiting = server.raw("wait_for_text", { pane_id, pattern: "never-matches", timeout_ms: 30_000 })
      .then(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pid = (await server.tmux("display-message", "-p", "-t", pane_id, "#{pane_pid}")).stdout.trim();
    // The pane's program is `sh -c 'sleep 600; exit 3'`: ending its sleep makes it exit with 3.
    const found = await new Deno.Command("pgrep", { args: ["-P", pid, "sleep"], stdout: "piped" }).output();
    const sleeper = Number(new TextDecoder().decode(found.stdout).trim());
    const at = performance.now();
    if (how === "kill") await server.tmux("kill-pane", "-t", pane_id);
    else Deno.kill(sleeper, "SIGTERM");
    (how === "kill" ? killed : exited).push((await waiting) - at);
  }
}
const row = (name: string, xs: number[]) =>
  console.log(`| ${name} | ${median(xs).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms | ${xs.length} |`);
console.log("| event | median | worst | runs |");
console.log("| --- | --- | --- | --- |");
row("pane killed from outside (tmux kill-pane) → PANE_GONE", killed);
row("pane's program exits (exit 3) → trigger exit", exited);
