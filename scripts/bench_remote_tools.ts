/**
 * Remote panes through the tools: a real tmuxwright server (stdio, the official SDK client) with
 * four lab hosts on a private loopback sshd (tests/helpers/sshd.ts), so the figures are the floor
 * of ssh, tmux and the server without network latency.
 *
 *   deno run -A scripts/bench_remote_tools.ts [calls]
 *
 * Side by side in one run: capture_pane and execute_command("true") on a remote pane, on a local
 * pane, and the floor of one `ssh host tmux capture-pane` per call; four hosts driven at once
 * against one; the time from a cut link to the next working call; a counting pane's log after
 * its link was cut and black-holed for a second: lines present once, missing, repeated.
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { LAB_HOSTS, SshLab } from "../tests/helpers/sshd.ts";
import { median, timed } from "./timing.ts";

const calls = Number(Deno.args[0] ?? 30);
const ms = (value: number) => `${value.toFixed(1)} ms`;

const lab = await SshLab.start();
const server = await TestServer.start({
  env: {
    TMUXWRIGHT_HOSTS: LAB_HOSTS.map((h) => `${h}=${h}`).join(","),
    TMUXWRIGHT_SSH_CONFIG: lab.configFile,
  },
});
try {
  const panes: Record<string, string> = {};
  for (const host of ["local", ...LAB_HOSTS]) {
    const created = await server.call<{ pane_id: string }>("create_pane", { host });
    panes[host] = created.pane_id;
    await server.call("execute_command", { pane_id: created.pane_id, command: "seq 1 40" });
  }

  const captureLocal: number[] = [];
  const captureRemote: number[] = [];
  for (let i = 0; i < calls; i++) {
    captureLocal.push(...await timed(1, () => server.call("capture_pane", { pane_id: panes.local })));
    captureRemote.push(...await timed(1, () => server.call("capture_pane", { pane_id: panes.alpha })));
  }
  const sshPerCall = await timed(Math.min(calls, 10), async () => {
    const out = await new Deno.Command("ssh", {
      args: ["-F", lab.configFile, "alpha", "tmux", "capture-pane", "-p", "-t", panes.alpha.split(":")[1]],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) throw new Error("ssh capture-pane failed");
  });
  console.log(
    `capture_pane median: local ${ms(median(captureLocal))}, remote ${ms(median(captureRemote))}, ` +
      `one ssh per call ${ms(median(sshPerCall))} (${(median(sshPerCall) / median(captureRemote)).toFixed(0)}×)`,
  );

  const execLocal: number[] = [];
  const execRemote: number[] = [];
  for (let i = 0; i < calls; i++) {
    execLocal.push(...await timed(1, () => server.call("execute_command", { pane_id: panes.local, command: "true" })));
    execRemote.push(...await timed(1, () => server.call("execute_command", { pane_id: panes.alpha, command: "true" })));
  }
  console.log(`execute_command("true") median: local ${ms(median(execLocal))}, remote ${ms(median(execRemote))}`);

  const rounds = Math.max(5, Math.floor(calls / 3));
  const one = await timed(rounds, () => server.call("execute_command", { pane_id: panes.alpha, command: "true" }));
  const four = await timed(
    rounds,
    () => Promise.all(LAB_HOSTS.map((h) => server.call("execute_command", { pane_id: panes[h], command: "true" }))),
  );
  console.log(
    `four hosts at once: execute_command("true") on each, median round ${ms(median(four))} ` +
      `(one host alone ${ms(median(one))})`,
  );

  const cutAt = performance.now();
  lab.relay("beta").cut();
  let failures = 0;
  for (;;) {
    const { isError } = await server.raw("capture_pane", { pane_id: panes.beta });
    if (!isError) break;
    failures++;
  }
  console.log(`cut link → working call: ${ms(performance.now() - cutAt)} (${failures} calls failed meanwhile)`);

  const total = 3000;
  const counter = await server.call<{ pane_id: string }>("create_pane", {
    host: "gamma",
    command: `sleep 0.5; i=0; while [ $i -lt ${total} ]; do i=$((i+1)); echo "n=$i"; ` +
      `case $i in *0) sleep 0.01;; esac; done; echo done-counting; sleep 600`,
  });
  await server.call("wait_for_text", { pane_id: counter.pane_id, pattern: "n=200$", regex: true, timeout_ms: 30_000 });
  lab.relay("gamma").blackhole();
  lab.relay("gamma").cut();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  lab.relay("gamma").heal();
  while ((await server.raw("capture_pane", { pane_id: counter.pane_id })).isError) { /* reconnecting */ }
  await server.call("wait_for_text", {
    pane_id: counter.pane_id,
    pattern: "done-counting",
    since: "screen",
    timeout_ms: 60_000,
  });
  const log = await server.call<{ content: string; gaps?: { kind: string }[] }>("read_logs", {
    pane_id: counter.pane_id,
    lines: total + 100,
    max_output: 800_000,
  });
  const seen = new Map<number, number>();
  for (const line of log.content.split("\n")) {
    const n = /^n=(\d+)$/.exec(line.trim())?.[1];
    if (n) seen.set(Number(n), (seen.get(Number(n)) ?? 0) + 1);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !seen.has(n)).length;
  const repeated = [...seen.values()].filter((count) => count > 1).length;
  console.log(
    `log after a 1 s outage mid-flood: ${seen.size - repeated}/${total} lines once, ${missing} missing, ` +
      `${repeated} repeated; gaps: ${JSON.stringify(log.gaps?.map((g) => g.kind) ?? [])}`,
  );
} finally {
  await server.close();
  await lab.close();
}
