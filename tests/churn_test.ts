import assert from "node:assert/strict";
import { churn, cpuBurners } from "./helpers/churn.ts";
import { TestServer, tmuxAt } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";

/**
 * tmux before 3.7 crashes (the whole server, every session on it) when a notification every
 * control client gets is written while a control client is still identifying (docs/DECISIONS.md,
 * "The tmux crash under link churn"). Servers that start, work and end at once on one tmux
 * server are what makes both happen together. Here four loops of three servers each start on
 * one tmux server, make a pane, run a command there and end — half cleanly, half by SIGKILL —
 * beside two CPU burners, while a person's own session runs a long job on that tmux server and
 * a keeper server holds a pane there. The tmux server, the person's job and the keeper's pane
 * must all outlive the churn.
 */
const WORKERS = 4;
/** More cycles for a longer run by hand: CHURN_CYCLES=20 deno test … tests/churn_test.ts */
const CYCLES = Number(Deno.env.get("CHURN_CYCLES") ?? 3);

/** A person's own session with a long job in it: its pane's pid, and its pane id. */
async function personJob(tmux: (...args: string[]) => Promise<{ stdout: string }>): Promise<[string, string]> {
  await tmux("new-session", "-d", "-s", "person", "sleep 600");
  const [pid, pane] = (await tmux("display-message", "-p", "-t", "=person:", "#{pane_pid} #{pane_id}")).stdout.trim()
    .split(" ");
  return [pid, pane];
}

/**
 * What must outlive the churn: the tmux server (its pid unchanged), every server's work (no
 * errors), the person's job and the keeper's pane (it still runs a command).
 */
async function assertOutlived(
  tmux: (...args: string[]) => Promise<{ stdout: string }>,
  which: string,
  before: { tmuxPid: string; jobPid: string; keeper: TestServer; kept: string },
  errors: string[],
): Promise<void> {
  assert.equal((await tmux("display-message", "-p", "#{pid}")).stdout.trim(), before.tmuxPid, `${which} crashed`);
  assert.deepEqual(errors, []);
  const job = await tmux("display-message", "-p", "-t", "=person:", "#{pane_pid} #{pane_dead}");
  assert.equal(job.stdout.trim(), `${before.jobPid} 0`, "the person's job is gone");
  const still = await before.keeper.call<{ output: string }>("execute_command", {
    pane_id: before.kept,
    command: "echo kept",
  });
  assert.equal(still.output, "kept");
}

Deno.test({
  name: "servers starting, working and ending (half by SIGKILL) on one host never take its tmux server down",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    const host = (...args: string[]) => lab.remoteTmux("alpha", ...args);
    const start = () => labServer(lab, ["alpha"]);
    await using keeper = await start();
    const kept = await keeper.call<{ pane_id: string }>("create_pane", { host: "alpha", name: "kept" });
    const tmuxPid = (await host("display-message", "-p", "#{pid}")).stdout.trim();
    const [jobPid] = await personJob(host);
    await using _burners = cpuBurners();
    const errors = await churn({
      start,
      work: async (server) => {
        const pane = await server.call<{ pane_id: string }>("create_pane", { host: "alpha" });
        const ran = await server.call<{ output: string }>("execute_command", {
          pane_id: pane.pane_id,
          command: "echo churn",
        });
        assert.equal(ran.output, "churn");
      },
      workers: WORKERS,
      cycles: CYCLES,
    });
    await assertOutlived(host, "the host's tmux", { tmuxPid, jobPid, keeper, kept: kept.pane_id }, errors);
  },
});

Deno.test({
  name: "servers starting, working and ending (half by SIGKILL) on one local tmux server never take it down",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const start = () => TestServer.start({ dir });
    const keeper = await start();
    const tmux = (...args: string[]) => tmuxAt(keeper.socket, ...args);
    try {
      const kept = await keeper.call<{ pane_id: string }>("create_pane", { name: "kept" });
      const tmuxPid = (await tmux("display-message", "-p", "#{pid}")).stdout.trim();
      const [jobPid, jobPane] = await personJob(tmux);
      await using _burners = cpuBurners();
      const errors = await churn({
        start,
        work: async (server) => {
          const ran = await server.call<{ output: string }>("execute_command", { command: "echo churn" });
          assert.equal(ran.output, "churn");
          // A pane of the person's session watched: a second control client (an output tap) comes and goes.
          // Its attach may wait its turn behind other servers' for the lock past this short deadline: an answer
          // either way (matched: false, or TIMEOUT naming the step) is what a loaded machine gives.
          const watched = await server.raw("wait_for_text", { pane_id: jobPane, pattern: "never", timeout_ms: 200 });
          if (watched.isError) assert.match(watched.text, /^TIMEOUT\b/, watched.text);
        },
        workers: WORKERS,
        cycles: CYCLES,
      });
      await assertOutlived(tmux, "tmux", { tmuxPid, jobPid, keeper, kept: kept.pane_id }, errors);
    } finally {
      await keeper.close();
    }
  },
});
