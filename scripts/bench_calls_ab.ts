/**
 * Every call's cost against another checkout, in one run: two servers (this checkout and `--main
 * PATH/main.ts`, e.g. 8a88607 checked out beside it) on one tmux binary, each with a pane, called
 * in blocks of 20 alternating: list_panes, execute_command `true`, capture_pane; medians of the
 * blocks' per-call means, and this checkout's ratio. Then capture_pane against the protocol floor:
 * an MCP `ping` round trip plus a bare control client's `capture-pane` on the same tmux server.
 * Run: deno run -A scripts/bench_calls_ab.ts --main /path/to/other/main.ts [--blocks N] [--burn]
 * (`--burn`: two CPU burners beside it). Prints the machine's load with the figures.
 */
import { parseArgs } from "node:util";
import { TestServer } from "../tests/helpers/harness.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { main: { type: "string" }, blocks: { type: "string", default: "15" }, burn: { type: "boolean" } },
});
if (!values.main) throw new Error("--main PATH/main.ts: the other checkout to compare with");
const BLOCKS = Number(values.blocks);
const BLOCK = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const burners = values.burn
  ? [0, 1].map(() => new Deno.Command("sh", { args: ["-c", "while :; do :; done"] }).spawn())
  : [];
try {
  await using here = await TestServer.start();
  await using there = await TestServer.start({ main: values.main });
  const servers = [{ label: "this checkout", s: here }, { label: values.main, s: there }];
  const panes = new Map<TestServer, string>();
  for (const { s } of servers) {
    const pane = await s.call<{ pane_id: string }>("create_pane", { command: "bash --norc --noprofile" });
    panes.set(s, pane.pane_id);
    await s.call("execute_command", { pane_id: pane.pane_id, command: "seq 1 50" }); // warm: shell integration
  }
  const calls: [string, (s: TestServer) => Promise<unknown>][] = [
    ["list_panes", (s) => s.call("list_panes")],
    ["execute_command true", (s) => s.call("execute_command", { pane_id: panes.get(s)!, command: "true" })],
    ["capture_pane", (s) => s.call("capture_pane", { pane_id: panes.get(s)! })],
  ];
  console.log(`load before: ${load()}${values.burn ? " (two CPU burners beside)" : ""}`);
  for (const [name, call] of calls) {
    const means = new Map<TestServer, number[]>(servers.map(({ s }) => [s, []]));
    for (let b = 0; b < BLOCKS; b++) {
      for (const { s } of b % 2 === 0 ? servers : [...servers].reverse()) {
        const start = performance.now();
        for (let i = 0; i < BLOCK; i++) await call(s);
        means.get(s)!.push((performance.now() - start) / BLOCK);
      }
    }
    const [a, b] = servers.map(({ s }) => median(means.get(s)!));
    console.log(`${name.padEnd(22)} this ${a.toFixed(2)} ms  other ${b.toFixed(2)} ms  ratio ${(a / b).toFixed(2)}`);
  }
  // The floor: what any MCP server must pay (a ping) plus what tmux pays (a bare client's capture).
  const bare = new Deno.Command("tmux", {
    args: ["-S", here.socket, "-C", "attach", "-f", "no-output"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = bare.stdin.getWriter();
  const reader = bare.stdout.getReader();
  // Only the unread tail is scanned: a buffer of every capture so far, matched again per read, cost ms.
  const decoder = new TextDecoder();
  let tail = "", endsSeen = 0;
  const untilEnd = async (count: number) => {
    while (endsSeen < count) {
      tail += decoder.decode((await reader.read()).value, { stream: true });
      const lines = tail.split("\n");
      tail = lines.pop()!;
      endsSeen += lines.filter((line) => line.startsWith("%end ")).length;
    }
  };
  let ends = 1;
  await untilEnd(ends); // the attach's own block
  const pane = panes.get(here)!;
  const capture: number[] = [], floor: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    let start = performance.now();
    for (let i = 0; i < BLOCK; i++) await here.call("capture_pane", { pane_id: pane });
    capture.push((performance.now() - start) / BLOCK);
    start = performance.now();
    for (let i = 0; i < BLOCK; i++) {
      await here.client.ping();
      await writer.write(new TextEncoder().encode(`capture-pane -p -J -S -100 -t ${pane}\n`));
      await untilEnd(++ends);
    }
    floor.push((performance.now() - start) / BLOCK);
  }
  const [c, f] = [median(capture), median(floor)];
  console.log(
    `capture_pane ${c.toFixed(2)} ms  floor (ping + bare capture-pane) ${f.toFixed(2)} ms  ratio ${(c / f).toFixed(2)}`,
  );
  console.log(`load after: ${load()}`);
  await writer.close().catch(() => {});
  await bare.status;
} finally {
  for (const burner of burners) burner.kill();
}
