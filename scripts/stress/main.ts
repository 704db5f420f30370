/**
 * A seeded randomized stress of tmuxwright: many MCP sessions over one `--http` server and stdio
 * servers side by side on one tmux server (and a lab host over OpenSSH when sshd is installed), each
 * calling a random mix of the pane tools while sessions end, drop and come back and faults strike.
 * Every answer is checked, and the end state. A failure prints the seed that reproduces it.
 *
 *   deno task stress [--seed N] [--seconds S] [--http N] [--stdio N] [--faults all|gentle|none]
 *                    [--lab auto|off] [--sample SECONDS] [--idle-ms MS] [--known TEXT]... [--inspect PORT]
 *                    [--home light|heavy|root] [--era 2025|2026]
 *
 * `--home heavy`: the shells start from tests/helpers/heavy_shell.ts's start-up files (0.5 s of CPU,
 * a 20 ms prompt hook) as bash; `root`: from this user's own home (their real rc files).
 * `--era 2026`: the HTTP agents speak MCP 2026-07-28 (the SDK v2 client pinned to it): no sessions,
 * each agent's workspace named by the handle its results hand back, ended by its lease.
 */
import { parseArgs } from "node:util";
import { Ledger, percentile } from "./checks.ts";
import { Fleet } from "./fleet.ts";
import { Rng } from "./rng.ts";
import { Actor } from "./actor.ts";
import { LeakWatch } from "./leaks.ts";
import { live } from "./runner.ts";
import { type FaultMode, injectFaults } from "./faults.ts";
import { finalChecks } from "./final.ts";
import { formatSample, medians, type Sample, sample, SAMPLE_HEADER } from "./sampler.ts";
import { SshLab } from "../../tests/helpers/sshd.ts";
import { heavyHome } from "../../tests/helpers/heavy_shell.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seed: { type: "string" },
    seconds: { type: "string", default: "60" },
    http: { type: "string", default: "5" },
    stdio: { type: "string", default: "2" },
    faults: { type: "string", default: "all" },
    lab: { type: "string", default: "auto" },
    sample: { type: "string", default: "0" },
    "idle-ms": { type: "string", default: "15000" },
    known: { type: "string", multiple: true, default: [] },
    inspect: { type: "string" },
    home: { type: "string", default: "light" },
    era: { type: "string", default: "2025" },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 1e9) : Number(values.seed);
const seconds = Number(values.seconds);
const rerun = `deno task stress --seed ${seed} --seconds ${seconds} --http ${values.http} --stdio ${values.stdio} ` +
  `--faults ${values.faults} --home ${values.home}${values.era === "2026" ? " --era 2026" : ""}`;
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const lab = values.lab === "off" ? null : await SshLab.start().catch((e) => {
  log(`no OpenSSH lab (${(e as Error).message.split("\n")[0]}): remote panes are left out`);
  return null;
});
const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twstress" });
const home = values.home === "heavy" ? await heavyHome() : values.home === "root" ? Deno.env.get("HOME") : undefined;
const era = values.era === "2026" ? "2026" : "2025";
const fleet = new Fleet(dir, lab, Number(values["idle-ms"]), home ? { home, program: "/bin/bash" } : {}, era);
const ledger = new Ledger(seed);
ledger.known = values.known as string[];
ledger.loaded = values.home !== "light";
const leaks = new LeakWatch(fleet, ledger);
const rng = new Rng(seed);
log(
  `stress seed ${seed}: ${seconds} s, ${values.http} HTTP (MCP ${era}) + ${values.stdio} stdio sessions, ` +
    `faults ${values.faults}, ` +
    `lab ${lab ? "alpha" : "off"}, shells from the ${values.home} home, state ${dir}`,
);

// --inspect PORT: the HTTP server's V8 inspector on 127.0.0.1:PORT (heap figures, forced GC, snapshots).
await fleet.startHttp(values.inspect ? [`--inspect=127.0.0.1:${values.inspect}`] : []);
const started = performance.now();
const until = started + seconds * 1000;
const actors = [
  ...Array.from(
    { length: Number(values.http) },
    (_, i) => new Actor(`h${i}`, "http", rng.fork(), fleet, ledger, leaks),
  ),
  ...Array.from(
    { length: Number(values.stdio) },
    (_, i) => new Actor(`s${i}`, "stdio", rng.fork(), fleet, ledger, leaks),
  ),
];
const sweeper = setInterval(() => void leaks.sweep().catch(() => {}), 2_000);
const samples: Sample[] = [];
const every = Number(values.sample) * 1000;
const mark = { at: performance.now(), calls: 0 };
const sampler = every > 0
  ? setInterval(async () => {
    const s = await sample(fleet, ledger, mark, Math.round((performance.now() - started) / 60_000 * 10) / 10);
    samples.push(s);
    log(`sample ${formatSample(s)}`);
  }, every)
  : undefined;

await Promise.all([
  ...actors.map((a) => live(a, until)),
  injectFaults(fleet, ledger, rng.fork(), until, values.faults as FaultMode, leaks, log),
]);
clearInterval(sweeper);
clearInterval(sampler);
const wall = (performance.now() - started) / 1000;
log(`actors done after ${wall.toFixed(0)} s; final checks`);
await finalChecks(fleet, ledger, leaks);

console.log(
  `\n${ledger.calls} calls in ${wall.toFixed(0)} s (${(ledger.calls / wall).toFixed(1)}/s); ` +
    `${ledger.faults.length} faults (${
      summary(ledger.faults.map((f) => f.kind))
    }); ${leaks.checked} owners checked for leftovers` +
    (ledger.loaded ? `; ${ledger.timeouts} TIMEOUT answers (in time, naming the slow step)` : ""),
);
const tools = [...ledger.latencies.entries()].sort((a, b) => b[1].length - a[1].length);
for (const [tool, ms] of tools) {
  const outcomes = [...ledger.counts.entries()].filter(([k]) => k.startsWith(`${tool} `))
    .map(([k, n]) => `${k.slice(tool.length + 1)} ${n}`).join(", ");
  console.log(
    `  ${tool.padEnd(16)} p50 ${percentile(ms, 0.5).toFixed(0)} ms, p99 ${
      percentile(ms, 0.99).toFixed(0)
    } ms: ${outcomes}`,
  );
}
if (samples.length > 0) console.log(`\n${SAMPLE_HEADER}\n${samples.map(formatSample).join("\n")}\n${medians(samples)}`);

await fleet.stopHttp();
const failed = ledger.violations.length > 0;
if (ledger.knownSeen.length > 0) {
  console.log(`\n${ledger.knownSeen.length} known violation(s) (--known), not failed on`);
}
if (!failed) {
  await fleet.killTmux();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
} else {
  console.log(`\nserver stderr (last 20 lines):\n${fleet.stderr.slice(-20).join("\n")}`);
}
await lab?.close();
if (values.home === "heavy" && home) await Deno.remove(home, { recursive: true }).catch(() => {});
console.log(
  failed
    ? `\nFAIL seed ${seed}: ${ledger.violations.length} violation(s); state kept in ${dir}; rerun: ${rerun}`
    : `\nPASS seed ${seed}`,
);
Deno.exit(failed ? 1 : 0);

function summary(kinds: string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts.entries()].map(([k, n]) => `${k} ${n}`).join(", ") || "none";
}
