/**
 * Cold start as a client sees it, side by side in one run: process spawn to the `tools/list`
 * answer (initialize, its reply, notifications/initialized, tools/list), every entry interleaved,
 * the first round discarded (warm caches), medians.
 *
 *   deno run -A scripts/bench_install.ts [RUNS] [--peer DIR] [--only installed,peer,task] [--against DIR]
 *     [--burners N]
 *
 * - installed `tmuxwright`: the package of `deno task pack` installed with `npm install -g --prefix`
 *   into a temp prefix (the sh bin execs the runtime of the `deno` npm dependency);
 * - nickgnd/tmux-mcp: the fastest peer, built from a checkout with npm (`--peer DIR`, default
 *   ~/.cache/tmuxwright-dev/peers/tmux-mcp; built there when it has no build/), packed and
 *   installed into the same prefix, run by its bin (Node);
 * - deno task start: the checkout's task (its bundle in dist/start/, built before the runs);
 * - the Node bin: the package's fallback (bin/tmuxwright.cjs), what the command was before;
 * - the server by hand: `deno run --no-config FLAGS server/main.js`, and the same without V8's
 *   code cache (`--no-code-cache`), and the single-file bundle of `deno task bundle`;
 * - with `--against DIR`: another checkout's package (the code before a change, e.g. `git archive REV`),
 *   packed there with its own `deno task pack` and installed into a prefix of its own.
 *
 * `--burners N` runs N CPU burners (`sh -c 'while :; do :; done'`) beside the runs: a loaded machine.
 *
 * Node and the runtime read the caller's environment: NODE_EXTRA_CA_CERTS, when set (it is on the
 * machines this project is built on), makes every Node start read that CA bundle first.
 */
import { launchFlags } from "../src/launcher/mod.ts";
import { cleanEnv } from "../tests/helpers/harness.ts";
import { cpuBurners } from "../tests/helpers/churn.ts";
import { median } from "./timing.ts";
import { pack } from "./pack.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const runs = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 10);
const option = (name: string) => (Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined);
const peerDir = option("--peer") ?? `${Deno.env.get("HOME")}/.cache/tmuxwright-dev/peers/tmux-mcp`;
const against = option("--against");

interface Entry {
  label: string;
  command: string;
  args: (dir: string) => string[];
  env: Record<string, string>;
  /** MCP 2026-07-28: server/discover, then tools/list, each with the `_meta` envelope (no initialize). */
  modern?: boolean;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
};
const LIST = [{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "tools/list" }];
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const DISCOVER = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } };
const LIST_2026 = [{ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: ENVELOPE } }];

/** User + system CPU ms of a process so far and of its reaped children (the launcher's), in 10 ms ticks; NaN if unknown. */
async function cpuMs(pid: number): Promise<number> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Process spawn to the tools/list answer, in ms, and the CPU the process spent to get there (the
 * sh bin execs the runtime, so one pid; a load on the machine stretches the first, hardly the second).
 */
async function coldStart(entry: Entry): Promise<{ ms: number; cpu: number }> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twi" });
  const lines = (messages: unknown[]) =>
    new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join(""));
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
  const reader = child.stdout.getReader();
  let text = "";
  const until = async (id: number) => {
    while (!new RegExp(`"id":${id}[,}]`).test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${entry.label}: stdout closed before the reply to request ${id}`);
      text += new TextDecoder().decode(value);
    }
  };
  await writer.write(lines([entry.modern ? DISCOVER : INIT]));
  await until(1);
  await writer.write(lines(entry.modern ? LIST_2026 : LIST));
  await until(2);
  const elapsed = performance.now() - started;
  const cpu = await cpuMs(child.pid);
  if (!/"name":"[a-z_-]*execute[a-z_-]*"/.test(text)) {
    throw new Error(`${entry.label}: no tools in ${text.slice(0, 200)}`);
  }
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output();
  await Deno.remove(dir, { recursive: true });
  return { ms: elapsed, cpu };
}

async function sh(command: string, cwd: string): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", command], cwd, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${command} in ${cwd}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** nickgnd/tmux-mcp packed from its checkout (built with npm first when it has no build/). */
async function peerTarball(dir: string): Promise<string | null> {
  try {
    await Deno.stat(`${dir}/package.json`);
  } catch {
    console.error(`no nickgnd/tmux-mcp checkout at ${dir} (--peer DIR): the peer is left out`);
    return null;
  }
  try {
    await Deno.stat(`${dir}/build/index.js`);
  } catch {
    await sh("npm ci --silent && npm run -s build", dir);
  }
  return `${dir}/${(await sh("npm pack --silent", dir)).split("\n").at(-1)}`;
}

const work = await Deno.makeTempDir({ dir: "/tmp", prefix: "twinstall" });
try {
  const tarball = `${ROOT}${await pack()}`;
  const peer = await peerTarball(peerDir);
  const prefix = `${work}/prefix`;
  await sh(`npm install -g --silent --prefix '${prefix}' '${tarball}' ${peer ? `'${peer}'` : ""}`, ROOT);
  const pkg = `${prefix}/lib/node_modules/tmuxwright`;
  // The other checkout's package, in a prefix of its own (both are named tmuxwright).
  const before = against ? `${work}/before` : null;
  if (against && before) {
    const packed = (await sh("deno task -q pack", against)).split("\n").at(-1)!;
    await sh(`npm install -g --silent --prefix '${before}' '${against}/${packed}'`, ROOT);
  }
  const env = cleanEnv();
  const socket = (dir: string) => ["--socket-path", `${dir}/s`];
  const byHand = (entry: string, extra: string[] = []) => (dir: string) => [
    "run",
    "--no-config",
    ...extra,
    ...launchFlags(socket(dir), (n) => env[n]),
    entry,
    ...socket(dir),
  ];
  // The task's bundle is built once, before the runs.
  await sh(`deno task -q --config '${ROOT}deno.json' start --version`, ROOT);
  await sh(`deno task -q --config '${ROOT}deno.json' bundle`, ROOT);
  const entries: Entry[] = [
    { label: "installed tmuxwright (sh bin)", command: `${prefix}/bin/tmuxwright`, args: socket, env },
    { label: "installed, MCP 2026 (discover)", command: `${prefix}/bin/tmuxwright`, args: socket, env, modern: true },
    ...(before
      ? [{ label: "--against: installed (sh bin)", command: `${before}/bin/tmuxwright`, args: socket, env }]
      : []),
    ...(peer
      ? [{ label: "nickgnd/tmux-mcp (installed)", command: `${prefix}/bin/tmux-mcp`, args: () => [], env }]
      : []),
    {
      label: "deno task start",
      command: "deno",
      args: (dir) => ["task", "-q", "--config", `${ROOT}deno.json`, "start", ...socket(dir)],
      env,
    },
    {
      label: "Node bin (the fallback; before)",
      command: "node",
      args: (d) => [`${pkg}/bin/tmuxwright.cjs`, ...socket(d)],
      env,
    },
    { label: "server by hand (chunks)", command: "deno", args: byHand(`${pkg}/server/main.js`), env },
    {
      label: "  the same, --no-code-cache",
      command: "deno",
      args: byHand(`${pkg}/server/main.js`, ["--no-code-cache"]),
      env,
    },
    { label: "single-file bundle by hand", command: "deno", args: byHand(`${ROOT}dist/tmuxwright.js`), env },
  ];
  const only = option("--only")?.split(",");
  const chosen = only ? entries.filter((e) => only.some((o) => e.label.includes(o))) : entries;

  const samples = new Map(chosen.map((e) => [e.label, [] as number[]]));
  const cpus = new Map(chosen.map((e) => [e.label, [] as number[]]));
  const loadBefore = Deno.loadavg().map((l) => l.toFixed(1)).join(" ");
  const burners = cpuBurners(Number(option("--burners") ?? 0));
  try {
    for (let i = 0; i <= runs; i++) {
      for (const entry of chosen) {
        const { ms, cpu } = await coldStart(entry);
        if (i === 0) continue; // the first round warms the caches
        samples.get(entry.label)!.push(ms);
        cpus.get(entry.label)!.push(cpu);
      }
    }
  } finally {
    await burners.stop();
  }
  const ms = (label: string) => median(samples.get(label) ?? [NaN]);
  const cpu = (label: string) => median(cpus.get(label) ?? [NaN]);
  const installed = ms(entries[0].label);
  console.log(
    `spawn to the tools/list answer, ${runs} interleaved runs each, medians; load ${loadBefore} before, ${
      Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
    } after; ${option("--burners") ?? 0} CPU burners; NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? "set" : "unset"}`,
  );
  for (const entry of chosen) {
    console.log(
      `  ${entry.label.padEnd(36)} ${ms(entry.label).toFixed(1).padStart(7)} ms  ${
        (ms(entry.label) / installed).toFixed(2)
      }x  CPU ${cpu(entry.label).toFixed(0)} ms`,
    );
  }
  if (peer) console.log(`installed / nickgnd/tmux-mcp: ${(installed / ms("nickgnd/tmux-mcp (installed)")).toFixed(2)}`);
  console.log(`installed / server by hand: ${(installed / ms("server by hand (chunks)")).toFixed(2)}`);
  console.log(`deno task start / installed: ${(ms("deno task start") / installed).toFixed(2)}`);
  if (before) {
    console.log(`installed / --against installed: ${(installed / ms("--against: installed (sh bin)")).toFixed(2)}`);
  }
} finally {
  await Deno.remove(work, { recursive: true });
}
