/**
 * What this machine's side of the session lock costs (src/tmux/host_session_lock.ts,
 * local_link.ts): a guarded step (`TmuxServer.guarded`: the lock, one tmux client, one more
 * command) beside the same command as a bare one-shot tmux client, a control client's connect
 * behind the link script beside one started as this process's child, and a command's round trip
 * through the link script's relays beside a child's. Interleaved, medians; a tmux server of its
 * own whose sessions run `cat` (no shell start-up competing for the CPU).
 *
 *   deno run -A scripts/bench_session_lock.ts [rounds]
 */
import { ControlClient } from "../src/tmux/control.ts";
import { TmuxServer } from "../src/tmux/server.ts";
import { median } from "./timing.ts";

const rounds = Number(Deno.args[0] ?? 20);
const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twbl" });
const socket = ["-S", `${dir}/s`];
const links = `${dir}/links`;
const tmux = (...args: string[]) => new Deno.Command("tmux", { args: [...socket, ...args] }).output();
await tmux("-f", "/dev/null", "new-session", "-d", "-s", "keep", "cat");
const server = new TmuxServer(socket, () => Promise.resolve("keep"), links);
const samples: Record<string, number[]> = {};
const timed = async (label: string, step: () => Promise<unknown>) => {
  const started = performance.now();
  await step();
  (samples[label] ??= []).push(performance.now() - started);
};

try {
  for (let i = 0; i < rounds; i++) {
    await timed("new-session, guarded", () => server.guarded([["new-session", "-d", "-s", `g${i}`, "cat"]]));
    await timed("new-session, one-shot", () => tmux("new-session", "-d", "-s", `o${i}`, "cat"));
    let relayed: ControlClient | null = null;
    await timed("connect, link script", async () => relayed = await ControlClient.connect(socket, "keep", {}, links));
    let child: ControlClient | null = null;
    await timed("connect, child", async () => child = await ControlClient.connect(socket, "keep", {}, null));
    for (let j = 0; j < 20; j++) {
      await timed("capture-pane, link script", () => relayed!.run(["capture-pane", "-p", "-t", "=keep:"]));
      await timed("capture-pane, child", () => child!.run(["capture-pane", "-p", "-t", "=keep:"]));
    }
    await relayed!.close();
    await child!.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // the link script's end lets go of the lock
  }
  console.log(`${rounds} rounds, interleaved, medians (load ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}):`);
  for (const [label, values] of Object.entries(samples)) {
    console.log(`  ${label.padEnd(28)} ${median(values).toFixed(2).padStart(8)} ms`);
  }
} finally {
  await server.close();
  await tmux("kill-server");
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
