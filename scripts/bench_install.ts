/**
 * Start-up of the installed npm package against the bundle run by hand, side by side in one run:
 * process start to the `initialize` reply, warm caches, interleaved runs, medians.
 *
 *   deno run -A scripts/bench_install.ts [RUNS] [--before CHECKOUT]
 *
 * - bundle by hand: `deno run --no-config FLAGS tmuxwright.js` (the package's own bundle, the
 *   launcher's flags, the deno on PATH);
 * - installed: the `tmuxwright` command of the package (`deno task pack`) installed with
 *   `npm install -g --prefix` into a temp prefix, run with a PATH that has no deno (Node starts
 *   the launcher, which starts the runtime of the `deno` npm package);
 * - installed, NODE_EXTRA_CA_CERTS unset (only when it is set here: Node then reads that CA
 *   bundle at start-up, which costs tens of ms before any code runs);
 * - deno task start (the launcher from source), and with --before, another checkout's task.
 */
import { launchFlags } from "../src/launcher/mod.ts";
import { cleanEnv } from "../tests/helpers/harness.ts";
import { median } from "./timing.ts";
import { pack } from "./pack.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const runs = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 20);
const before = Deno.args[Deno.args.indexOf("--before") + 1];

interface Entry {
  label: string;
  command: string;
  args: (dir: string) => string[];
  env: Record<string, string>;
}

/** A directory of links to every program on PATH except deno (the first of each name, as PATH finds it). */
async function pathWithoutDeno(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const from of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":").filter((d) => d.startsWith("/"))) {
    try {
      for await (const entry of Deno.readDir(from)) {
        if (entry.name !== "deno") await Deno.symlink(`${from}/${entry.name}`, `${dir}/${entry.name}`).catch(() => {});
      }
    } catch { /* a PATH entry that does not exist */ }
  }
  return dir;
}

/** Process start to the reply to initialize, in ms. */
async function coldStart(entry: Entry): Promise<number> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twi" });
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  }) + "\n";
  const started = performance.now();
  const child = new Deno.Command(entry.command, {
    args: entry.args(dir),
    env: entry.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(init));
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes('"id":1')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${entry.label}: stdout closed before the initialize reply`);
    text += new TextDecoder().decode(value);
  }
  const elapsed = performance.now() - started;
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  await Deno.remove(dir, { recursive: true });
  return elapsed;
}

const work = await Deno.makeTempDir({ dir: "/tmp", prefix: "twinstall" });
try {
  const tarball = `${ROOT}${await pack()}`;
  const prefix = `${work}/prefix`;
  const noDeno = await pathWithoutDeno(`${work}/bin`);
  const installed = await new Deno.Command("npm", {
    args: ["install", "-g", "--silent", "--prefix", prefix, tarball],
    env: { ...Deno.env.toObject(), PATH: noDeno },
  }).output();
  if (!installed.success) throw new Error(`npm install failed: ${new TextDecoder().decode(installed.stderr)}`);
  const bundle = `${prefix}/lib/node_modules/tmuxwright/tmuxwright.js`;
  const env = cleanEnv();
  // The default state directory (in the test home), which every task version grants.
  const socket = (dir: string) => ["--socket-path", `${dir}/s`];
  const installedEnv: Record<string, string> = { ...env, PATH: `${prefix}/bin:${noDeno}` };
  const entries: Entry[] = [
    {
      label: "bundle by hand (deno run)",
      command: "deno",
      args: (dir) => ["run", "--no-config", ...launchFlags(socket(dir), (n) => env[n]), bundle, ...socket(dir)],
      env,
    },
    { label: "installed tmuxwright", command: `${prefix}/bin/tmuxwright`, args: socket, env: installedEnv },
  ];
  if (env.NODE_EXTRA_CA_CERTS) {
    const { NODE_EXTRA_CA_CERTS: _, ...clean } = installedEnv;
    entries.push({ label: "installed, no NODE_EXTRA_CA_CERTS", command: entries[1].command, args: socket, env: clean });
  }
  const task =
    (checkout: string) => (dir: string) => ["task", "-q", "--config", `${checkout}/deno.json`, "start", ...socket(dir)];
  entries.push({ label: "deno task start", command: "deno", args: task(ROOT), env });
  if (before) entries.push({ label: `deno task start (${before})`, command: "deno", args: task(before), env });

  const samples = new Map(entries.map((e) => [e.label, [] as number[]]));
  for (let i = 0; i <= runs; i++) {
    for (const entry of entries) {
      const ms = await coldStart(entry);
      if (i > 0) samples.get(entry.label)!.push(ms); // the first round warms the caches
    }
  }
  const base = median(samples.get(entries[0].label)!);
  console.log(`start-up to the initialize reply, ${runs} interleaved runs each, medians (load ${Deno.loadavg()[0]}):`);
  for (const entry of entries) {
    const ms = median(samples.get(entry.label)!);
    console.log(`  ${entry.label.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(2)}x`);
  }
} finally {
  await Deno.remove(work, { recursive: true });
}
