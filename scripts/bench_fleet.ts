/**
 * Many hosts at once: one tmuxwright server (--http) with 16 lab hosts (tests/helpers/sshd.ts:
 * one private sshd, each host its own relay, ssh link and remote tmux server), and an agent per
 * host (its own MCP session over HTTP, the official SDK client) running execute_command on its
 * host's pane in a loop.
 *
 *   deno run -A scripts/bench_fleet.ts [hosts=16] [seconds per phase=10] [delay ms each way=0]
 *
 * Prints, side by side, for the same 15 hosts: every agent running (calls/s in all, per host,
 * p50/p95), then the same with the 16th host black-holed (its agent keeps calling), then with it
 * back; and the server's RSS per link (the server process, and each link's ssh client).
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { fleetHosts, SshLab } from "../tests/helpers/sshd.ts";
import type { Client } from "../tests/helpers/sdk_client.ts";
import { median } from "./timing.ts";

const count = Number(Deno.args[0] ?? 16);
const seconds = Number(Deno.args[1] ?? 10);
const delayMs = Number(Deno.args[2] ?? 0);
const hosts = fleetHosts(count);

async function rssKiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** The ssh clients the server started (its children named ssh), with their RSS. */
async function sshChildren(pid: number): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["--ppid", String(pid), "-o", "rss=,comm="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => /\sssh$/.test(l)).map((l) => parseInt(l));
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  if (result.isError) throw new Error(`${name}: ${text}`);
  return JSON.parse(text);
}

const p95 = (values: number[]) =>
  values.length ? values.toSorted((a, b) => a - b)[Math.floor(values.length * 0.95)] : NaN;
const f = (n: number) => Number.isFinite(n) ? n.toFixed(1) : "–";

const lab = await SshLab.start({ fleet: count, delay: { delayMs } });
await using server = await HttpMcpServer.start({
  env: { TMUXWRIGHT_HOSTS: hosts.map((h) => `${h}=${h}`).join(","), TMUXWRIGHT_SSH_CONFIG: lab.configFile },
});
try {
  const agents = await Promise.all(hosts.map(async (host) => ({ host, ...(await server.client()) })));
  const rssBefore = await rssKiB(server.pid);
  // Each agent makes its pane on its own host (all links connect at once).
  const started = performance.now();
  const panes = await Promise.all(
    agents.map(async (a) => (await call(a.client, "create_pane", { host: a.host })).pane_id as string),
  );
  const connectAll = performance.now() - started;
  await Promise.all(agents.map((a, i) => call(a.client, "execute_command", { pane_id: panes[i], command: "true" })));
  const rssAfter = await rssKiB(server.pid);
  const ssh = await sshChildren(server.pid);

  /** Every agent calls execute_command in a loop for the phase; returns each agent's latencies. */
  const phase = async (dead: string | null) => {
    const until = performance.now() + seconds * 1000;
    return await Promise.all(agents.map(async (a, i) => {
      const times: number[] = [];
      let failed = 0;
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await call(a.client, "execute_command", { pane_id: panes[i], command: "echo ok", timeout_ms: 30_000 });
          times.push(performance.now() - t);
        } catch {
          failed++;
          if (a.host === dead) await new Promise((r) => setTimeout(r, 100));
        }
      }
      return { host: a.host, times, failed };
    }));
  };
  const dead = hosts[hosts.length - 1];
  /** The figures of the hosts other than `dead` (the same hosts in both phases). */
  const summary = (results: { host: string; times: number[]; failed: number }[]) => {
    const live = results.filter((r) => r.host !== dead);
    const all = live.flatMap((r) => r.times);
    const perHost = live.map((r) => r.times.length / seconds);
    return {
      callsPerSec: all.length / seconds,
      minHost: Math.min(...perHost),
      maxHost: Math.max(...perHost),
      p50: median(all),
      p95: p95(all),
      worstHostP95: Math.max(...live.map((r) => p95(r.times))),
      slowest: Math.max(...live.flatMap((r) => r.times)),
      slowestHost: live.find((r) => r.times.includes(Math.max(...live.flatMap((q) => q.times))))?.host ?? "",
      failed: live.reduce((n, r) => n + r.failed, 0),
      deadFailed: results.find((r) => r.host === dead)?.failed ?? 0,
    };
  };
  const first = await phase(null);
  const healthy = summary(first);
  const deadAlive = first.find((r) => r.host === dead)!.times;
  lab.relay(dead).blackhole();
  const withDead = summary(await phase(dead));
  // Back up: healed (its link comes back on the next call), then the same again, to tell an
  // effect of the dead host from the machine's own drift (it is shared).
  lab.relay(dead).heal();
  const back = performance.now() + 60_000;
  while (performance.now() < back) {
    const i = hosts.indexOf(dead);
    const ok = await call(agents[i].client, "execute_command", { pane_id: panes[i], command: "true" })
      .then(() => true, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const again = summary(await phase(null));

  console.log(`${count} hosts, ${delayMs} ms each way, ${seconds} s per phase, one agent (MCP session) per host`);
  console.log(`all links up from the first create_pane on each, at once: ${connectAll.toFixed(0)} ms`);
  console.log(
    `server RSS: ${(rssBefore / 1024).toFixed(1)} MiB before the links, ${(rssAfter / 1024).toFixed(1)} MiB with ` +
      `${count} links and panes: ${((rssAfter - rssBefore) / count).toFixed(0)} KiB per link; ` +
      `ssh client per link: ${(median(ssh) / 1024).toFixed(1)} MiB median (${ssh.length} ssh processes)`,
  );
  const line = (name: string, s: ReturnType<typeof summary>) =>
    console.log(
      `${name.padEnd(28)} ${f(s.callsPerSec).padStart(7)} calls/s (per host ${f(s.minHost)}–${f(s.maxHost)}), ` +
        `p50 ${f(s.p50)} ms, p95 ${f(s.p95)} ms, worst host's p95 ${f(s.worstHostP95)} ms, ` +
        `slowest call ${f(s.slowest)} ms (${s.slowestHost}), failed ${s.failed}`,
    );
  console.log(`the other ${count - 1} hosts' agents, while ${dead} is up and while it is black-holed:`);
  line(`${dead} up`, healthy);
  line(`${dead} black-holed`, withDead);
  line(`${dead} up again`, again);
  console.log(`${dead} itself while up: ${f(deadAlive.length / seconds)} calls/s, p95 ${f(p95(deadAlive))} ms`);
  console.log(`the black-holed host's agent: ${withDead.deadFailed} calls failed (HOST_UNREACHABLE) meanwhile`);
  await Promise.all(agents.map((a) => a.client.close()));
} finally {
  await server.stop();
  await lab.close();
}
