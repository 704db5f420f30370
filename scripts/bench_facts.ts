/**
 * The cost of one look at a pane's processes with each backend, side by side in one run: /proc
 * (a sh script reading files) and ps (one `ps` call for the pane's terminal), both run by tmux
 * as the server runs them. Looks alternate between the backends so load hits both alike. Three
 * panes: a shell at its prompt, a pipeline behind the shell (`sleep 600 | less`, three processes),
 * and the same look with the terminal's modes (`stty -a`, as the input probe asks).
 *
 *   deno run -A scripts/bench_facts.ts [--looks 60]
 */
import { parseArgs } from "node:util";
import { TmuxServer } from "../src/tmux/server.ts";
import { type FactsBackend, ProcessFacts } from "../src/engine/facts/mod.ts";
import { tmuxAt } from "../tests/helpers/harness.ts";
import { median } from "./timing.ts";

const { values } = parseArgs({ options: { looks: { type: "string", default: "60" } } });
const looks = Number(values.looks);

const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twb" });
const socket = `${dir}/s`;
await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "hub", "cat");
const tmux = new TmuxServer(["-S", socket], () => Promise.resolve("hub"));
const pane = async (keys?: string) => {
  const out = await tmuxAt(socket, "new-window", "-d", "-P", "-F", "#{pane_id} #{pane_pid}", "bash --norc -i");
  const [id, pid] = out.stdout.trim().split(" ");
  if (keys) await tmuxAt(socket, "send-keys", "-t", id, "-l", "--", `${keys}\r`);
  return Number(pid);
};

try {
  const cases = [
    { name: "shell at its prompt", pid: await pane(), terminal: false },
    { name: "pipeline behind the shell (sleep, less)", pid: await pane("sleep 600 | less"), terminal: false },
    { name: "the same, with the terminal's modes", pid: 0, terminal: true },
  ];
  cases[2].pid = cases[1].pid;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const facts: Record<FactsBackend, ProcessFacts> = {
    proc: new ProcessFacts(tmux, dir, "proc"),
    ps: new ProcessFacts(tmux, dir, "ps"),
  };
  console.log(`${looks} looks per backend and case, alternating; milliseconds per look\n`);
  console.log("| case | proc median | proc p90 | ps median | ps p90 | ps / proc |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const c of cases) {
    const times: Record<FactsBackend, number[]> = { proc: [], ps: [] };
    for (const backend of ["proc", "ps"] as const) await facts[backend].look(c.pid, { terminal: c.terminal }); // warm
    for (let i = 0; i < looks; i++) {
      for (const backend of (i % 2 === 0 ? ["proc", "ps"] : ["ps", "proc"]) as FactsBackend[]) {
        const started = performance.now();
        const look = await facts[backend].look(c.pid, { terminal: c.terminal });
        times[backend].push(performance.now() - started);
        if (!look.ran || !look.facts.has(c.pid)) throw new Error(`${backend}: the look found no pane process`);
      }
    }
    const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    const [proc, ps] = [median(times.proc), median(times.ps)];
    console.log(
      `| ${c.name} | ${proc.toFixed(1)} | ${p90(times.proc).toFixed(1)} | ${ps.toFixed(1)} | ${
        p90(times.ps).toFixed(1)
      } | ${(ps / proc).toFixed(2)} |`,
    );
  }
} finally {
  await tmux.close();
  await tmuxAt(socket, "kill-server");
  await Deno.remove(dir, { recursive: true });
}
