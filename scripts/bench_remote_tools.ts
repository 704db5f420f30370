/**
 * Remote panes through the tools: a real tmuxwright server (stdio, the official SDK client) with
 * four lab hosts on a private loopback sshd (tests/helpers/sshd.ts), each behind a relay that
 * delays every byte in each direction (tests/helpers/tcp_relay.ts), as users will be: a region
 * away, a continent away.
 *
 *   deno run -A scripts/bench_remote_tools.ts [calls] [delays ms each way, comma-separated: 0,25,75]
 *
 * Side by side in one run, at each delay: capture_pane, execute_command("true"), send_keys with
 * a wait, send_keys + wait_for_text (its cursor), run_in_repl, start_process on a fresh pane until
 * ready, and create_pane then start_process in it (with the goal: the host shell's start + 3 RTT +
 * 250 ms), each in ms and in round trips, next to one `ssh host tmux capture-pane` per call.
 * Then, without delay: four hosts driven at once against one; the time from a cut link to the
 * next working call; a counting pane's log after its link was cut and black-holed for a second:
 * lines present once, missing, repeated.
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { LAB_HOSTS, SshLab } from "../tests/helpers/sshd.ts";
import { median, timed } from "./timing.ts";

const calls = Number(Deno.args[0] ?? 20);
const delays = (Deno.args[1] ?? "0,25,75").split(",").map(Number);
const ms = (value: number) => `${value.toFixed(1)} ms`;

const lab = await SshLab.start();
const server = await TestServer.start({
  env: {
    TMUXWRIGHT_HOSTS: LAB_HOSTS.map((h) => `${h}=${h}`).join(","),
    TMUXWRIGHT_SSH_CONFIG: lab.configFile,
  },
});
const rows = new Map<string, string[]>();
const row = (name: string, delay: number, values: number[]) => {
  const m = median(values);
  const rtt = 2 * delay;
  const cell = rtt > 0 ? `${ms(m)} (${(m / rtt).toFixed(2)} RTT)` : ms(m);
  rows.set(name, [...(rows.get(name) ?? []), cell]);
};
try {
  const panes: Record<string, string> = {};
  for (const host of ["local", ...LAB_HOSTS]) {
    const created = await server.call<{ pane_id: string }>("create_pane", { host });
    panes[host] = created.pane_id;
    await server.call("execute_command", { pane_id: created.pane_id, command: "seq 1 40" });
  }
  const repl = await server.call<{ pane_id: string }>("create_pane", { host: "alpha", command: "python3 -q" });
  await server.call("wait_for_text", { pane_id: repl.pane_id, pattern: ">>> ", since: "screen", timeout_ms: 20_000 });

  for (const delay of delays) {
    lab.setDelay({ delayMs: delay });
    const n = delay > 50 ? Math.max(5, Math.floor(calls / 2)) : calls;
    // One call first: the link's buffers and the shell's state warm at this delay.
    await server.call("execute_command", { pane_id: panes.alpha, command: "true" });
    row("capture_pane", delay, await timed(n, () => server.call("capture_pane", { pane_id: panes.alpha })));
    row(
      "one ssh per call (ssh host tmux capture-pane)",
      delay,
      await timed(Math.min(n, 5), async () => {
        const out = await new Deno.Command("ssh", {
          args: ["-F", lab.configFile, "alpha", "tmux", "capture-pane", "-p", "-t", panes.alpha.split(":")[1]],
          stdout: "piped",
          stderr: "null",
        }).output();
        if (!out.success) throw new Error("ssh capture-pane failed");
      }),
    );
    row(
      'execute_command("true")',
      delay,
      await timed(n, () => server.call("execute_command", { pane_id: panes.alpha, command: "true" })),
    );
    row(
      'send_keys "echo hi", wait shell',
      delay,
      await timed(n, () => server.call("send_keys", { pane_id: panes.alpha, text: "echo hi", wait: ["shell"] })),
    );
    row(
      'send_keys "echo hi" + wait_for_text "^hi$"',
      delay,
      await timed(n, async () => {
        const sent = await server.call<{ cursor: string }>("send_keys", { pane_id: panes.alpha, text: "echo hi" });
        await server.call("wait_for_text", { pane_id: panes.alpha, pattern: "^hi$", regex: true, cursor: sent.cursor });
      }),
    );
    row(
      'run_in_repl "1+1" (python3)',
      delay,
      await timed(n, () => server.call("run_in_repl", { pane_id: repl.pane_id, input: "1+1", prompt: "^>>> $" })),
    );
    const fresh: string[] = [];
    row(
      "start_process on a fresh pane, until ready",
      delay,
      await timed(Math.min(n, 5), async () => {
        const started = await server.call<{ pane_id: string; outcome: string }>("start_process", {
          host: "alpha",
          command: "echo ready-now",
          ready: "^ready-now",
          timeout_ms: 20_000,
        });
        if (started.outcome !== "ready") throw new Error(`start_process: ${started.outcome}`);
        fresh.push(started.pane_id);
      }),
    );
    row(
      "create_pane, then start_process in it, until ready",
      delay,
      await timed(Math.min(n, 5), async () => {
        const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { host: "alpha" });
        const started = await server.call<{ outcome: string }>("start_process", {
          pane_id,
          command: "echo ready-now",
          ready: "^ready-now",
          timeout_ms: 20_000,
        });
        if (started.outcome !== "ready") throw new Error(`start_process: ${started.outcome}`);
        fresh.push(pane_id);
      }),
    );
    for (const pane_id of fresh) await server.call("kill_pane", { pane_id });
  }
  // The goal of a fresh pane (#30, #49): the host's shell start-up + 3 RTT + 250 ms.
  const shellStart = median(
    await timed(
      5,
      () =>
        new Deno.Command("bash", {
          args: ["-ic", "exit"],
          env: { HOME: lab.home },
          stdin: "null",
          stdout: "null",
          stderr: "null",
        })
          .output(),
    ),
  );
  console.log(
    `the host's shell start-up (bash -ic exit, its HOME): ${ms(shellStart)}; a fresh pane's goal at each delay: ` +
      delays.map((d) => ms(shellStart + 6 * d + 250)).join(" | "),
  );
  lab.setDelay({ delayMs: 0 });
  console.log(`remote figures (median), one way delay ${delays.map((d) => `${d} ms`).join(" | ")}:`);
  for (const [name, cells] of rows) console.log(`  ${name}: ${cells.join(" | ")}`);

  const captureLocal = await timed(calls, () => server.call("capture_pane", { pane_id: panes.local }));
  const execLocal = await timed(calls, () => server.call("execute_command", { pane_id: panes.local, command: "true" }));
  console.log(
    `local, for comparison: capture_pane ${ms(median(captureLocal))}, execute_command ${ms(median(execLocal))}`,
  );

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
