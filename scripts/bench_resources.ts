/**
 * Resource update latency: output written in a pane → `notifications/resources/updated` at the
 * client, for an owned pane (log follower) and a user's pane (`%output` tap), and the update rate
 * a flooding pane costs the client. Run: deno run -A scripts/bench_resources.ts [rounds]
 */
import { TestServer, until } from "../tests/helpers/harness.ts";
import { PLAIN_BASH } from "../tests/helpers/shell_pane.ts";
import { ResourceUpdatedNotificationSchema } from "../tests/helpers/sdk_client.ts";

const ROUNDS = Number(Deno.args[0] ?? 60);
const wallMs = () => performance.timeOrigin + performance.now();
const stats = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95), max: s.at(-1)!, n: s.length };
};
const fmt = (x: number) => x.toFixed(2);
const uriOf = (pane: string) => `tmux://panes/${encodeURIComponent(pane)}/content`;

await using server = await TestServer.start();
const arrivals = new Map<string, number[]>(); // uri → wall-clock arrival times
server.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  const list = arrivals.get(n.params.uri) ?? [];
  list.push(wallMs());
  arrivals.set(n.params.uri, list);
});

const owned = (await server.call<{ pane_id: string }>("create_pane", { command: PLAIN_BASH })).pane_id;
const user = (await server.tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-P", "-F", "#{pane_id}"))
  .stdout.trim();
await server.tmux("respawn-pane", "-k", "-t", user, PLAIN_BASH);
for (const pane of [owned, user]) {
  await until(() => server.tmux("capture-pane", "-p", "-t", pane), (c) => /[$#] *$/m.test(c.stdout));
  await server.client.subscribeResource({ uri: uriOf(pane) });
}

async function round(pane: string, i: number): Promise<number> {
  const tag = `M${i}x`;
  await server.tmux("send-keys", "-t", pane, "-l", `sleep 0.2; echo ${tag}-$(date +%s%N)`);
  await server.tmux("send-keys", "-t", pane, "Enter");
  const re = new RegExp(`^${tag}-(\\d+)$`, "m");
  const shot = await until(() => server.tmux("capture-pane", "-p", "-t", pane), (c) => re.test(c.stdout));
  const written = Number(re.exec(shot.stdout)![1]) / 1e6;
  // The typed line's echo was reported 200 ms earlier; the marker's update is the first one after it.
  const seen = await until(
    () => (arrivals.get(uriOf(pane)) ?? []).find((t) => t >= written),
    (t) => t !== undefined,
  );
  return seen! - written;
}

const latency: Record<string, number[]> = { owned: [], user: [] };
for (let i = 0; i < ROUNDS; i++) {
  latency.owned.push(await round(owned, i));
  latency.user.push(await round(user, i));
}
console.log(`## Resource update latency (marker written -> notifications/resources/updated at the client), ms`);
for (const [name, xs] of Object.entries(latency)) {
  const s = stats(xs);
  console.log(`${name.padEnd(6)} pane  median ${fmt(s.median)}  p95 ${fmt(s.p95)}  max ${fmt(s.max)}  (n=${s.n})`);
}

// A pane that floods: how many updates the client gets while it prints.
for (const [name, pane] of [["owned", owned], ["user", user]] as const) {
  const before = (arrivals.get(uriOf(pane)) ?? []).length;
  const started = wallMs();
  await server.tmux("send-keys", "-t", pane, "-l", "seq 1 3000000; echo FLOOD-DONE");
  await server.tmux("send-keys", "-t", pane, "Enter");
  await until(() => server.tmux("capture-pane", "-p", "-t", pane), (c) => /^FLOOD-DONE$/m.test(c.stdout), 120_000);
  const seconds = (wallMs() - started) / 1000;
  const count = (arrivals.get(uriOf(pane)) ?? []).length - before;
  console.log(
    `flood ${name.padEnd(5)}: ${count} updates in ${seconds.toFixed(2)} s = ${(count / seconds).toFixed(1)}/s ` +
      `(limit 20/s: one per 50 ms)`,
  );
}
