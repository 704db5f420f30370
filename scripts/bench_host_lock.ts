/**
 * What the host's session lock (src/tmux/host_session_lock.ts) costs a link: the time from
 * dialling a host to the first answer, and a server's end there (its hub removed), one link at a
 * time and four at once, on the loopback OpenSSH lab (tests/helpers/sshd.ts). With `--before
 * CHECKOUT` the same runs with another checkout's registry side by side (e.g. a worktree of the
 * commit before the lock).
 *
 *   deno run -A scripts/bench_host_lock.ts [rounds] [--before CHECKOUT]
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { HostRegistry } from "../src/engine/hosts/registry.ts";
import { SshLab } from "../tests/helpers/sshd.ts";
import { median } from "./timing.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { before: { type: "string" } },
  allowPositionals: true,
});
const rounds = Number(positionals[0] ?? 20);
type Registry = typeof HostRegistry;

async function registryFrom(root: string): Promise<Registry> {
  const url = pathToFileURL(resolve(root, "src/engine/hosts/registry.ts")).href;
  return (await import(url)).HostRegistry as Registry;
}

/** Dials, runs one command, ends (the hub removed): milliseconds to the first answer and for the end. */
async function oneLink(Registry: Registry, lab: SshLab, hub: string): Promise<{ up: number; end: number }> {
  const registry = new Registry(null, {
    hosts: [{ name: "alpha", destination: "alpha" }],
    sshConfig: lab.configFile,
    hubSession: hub,
  });
  const started = performance.now();
  await registry.link("alpha").run("display-message", "-p", "up");
  const up = performance.now() - started;
  const ending = performance.now();
  await registry.close();
  return { up, end: performance.now() - ending };
}

async function measure(Registry: Registry, lab: SshLab, label: string): Promise<string[]> {
  const alone = { up: [] as number[], end: [] as number[] };
  const together = { up: [] as number[], end: [] as number[] };
  let failed = 0; // a link that could not be used (the host's tmux server crashed under it)
  const tried = (hub: string) => oneLink(Registry, lab, hub).catch(() => (failed++, null));
  for (let i = 0; i < rounds; i++) {
    const r = await tried(`tmuxwright-link-b${label}-${i}`);
    if (r) alone.up.push(r.up), alone.end.push(r.end);
    const four = await Promise.all([0, 1, 2, 3].map((w) => tried(`tmuxwright-link-b${label}-${i}-${w}`)));
    for (const f of four) if (f) together.up.push(f.up), together.end.push(f.end);
  }
  const f = (values: number[]) => `${median(values).toFixed(1)} ms`.padStart(9);
  return [
    `${label.padEnd(8)} one link: up ${f(alone.up)}, end ${f(alone.end)}   four at once: up ${f(together.up)}, end ${
      f(together.end)
    }   links failed: ${failed}`,
  ];
}

const lab = await SshLab.start();
try {
  const lines: string[] = [];
  const now = await registryFrom(".");
  const before = values.before ? await registryFrom(values.before) : null;
  for (let pass = 0; pass < 2; pass++) { // interleaved: the machine's load falls on both alike
    lines.push(...await measure(now, lab, `lock-${pass}`));
    if (before) lines.push(...await measure(before, lab, `before-${pass}`));
  }
  console.log(`${rounds} rounds each, medians:`);
  for (const line of lines) console.log(line);
} finally {
  await lab.close();
}
