/**
 * Remote hosts: what the persistent link saves over one ssh per call, and how fast a cut link
 * heals. Runs a private sshd (tests/helpers/sshd.ts) on loopback, so the figures are the floor of
 * ssh and tmux themselves, without network latency.
 *
 *   deno run -A scripts/bench_hosts.ts [calls]
 *
 * Side by side in one run: capture-pane by one `ssh host tmux capture-pane` per call, through the
 * link, and on the local control connection; a runShell round trip through the link; two hosts
 * driven at once; the time from a cut link to the next working call; the time a black-holed
 * link takes to fail the call in flight (default keep-alives).
 */
import { HostRegistry } from "../src/engine/hosts/mod.ts";
import { TmuxServer } from "../src/tmux/server.ts";
import { SshLab } from "../tests/helpers/sshd.ts";
import { median, timed } from "./timing.ts";

const calls = Number(Deno.args[0] ?? 40);
const ms = (value: number) => `${value.toFixed(2)} ms`;

const lab = await SshLab.start();
const socket = `${lab.dir}/bench.sock`; // removed with the lab's directory
const local = new TmuxServer(["-S", socket], async () => {
  await new Deno.Command("tmux", { args: ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "bench"] })
    .output();
  return "bench";
});
const hosts = new HostRegistry(local, {
  hosts: [{ name: "alpha", destination: "alpha" }, { name: "beta", destination: "beta" }],
  sshConfig: lab.configFile,
  hubSession: "tmuxwright-link-bench",
});
try {
  const alpha = hosts.link("alpha");
  const beta = hosts.link("beta");
  for (const link of [alpha, beta, local]) await link.run("display-message", "-p", "warm");
  await lab.remoteTmux("alpha", "new-session", "-d", "-s", "work", "seq 1 60; exec sleep 600");
  await lab.remoteTmux("beta", "new-session", "-d", "-s", "work", "seq 1 60; exec sleep 600");
  await local.oneShot("new-session", "-d", "-s", "work", "seq 1 60; exec sleep 600");
  const capture = ["capture-pane", "-p", "-t", "=work:"];

  const perCallSsh = await timed(Math.min(calls, 20), async () => {
    const out = await new Deno.Command("ssh", {
      args: [
        "-T",
        "-o",
        "BatchMode=yes",
        "-F",
        lab.configFile,
        "--",
        "alpha",
        `tmux ${capture.slice(0, 3).join(" ")} =work:`,
      ],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) throw new Error("ssh capture failed");
  });
  const viaLink = await timed(calls, () => alpha.run(...capture));
  const viaLocal = await timed(calls, () => local.run(...capture));
  const shell = await timed(calls, () => alpha.runShell("cat /proc/$$/stat >/dev/null; echo ok"));
  const twoStarted = performance.now();
  await Promise.all([timed(calls, () => alpha.run(...capture)), timed(calls, () => beta.run(...capture))]);
  const twoHosts = (performance.now() - twoStarted) / calls;

  const heal: number[] = [];
  for (let i = 0; i < 5; i++) {
    await alpha.run("display-message", "-p", "up");
    const cut = performance.now();
    lab.relay("alpha").cut();
    for (;;) {
      try {
        await alpha.run(...capture);
        break;
      } catch { /* the first call after the cut fails (HOST_UNREACHABLE); the next reconnects */ }
    }
    heal.push(performance.now() - cut);
  }

  // A black-holed link (no byte passes, nothing is reset): how long until the call in flight fails.
  await alpha.run("display-message", "-p", "up");
  lab.relay("alpha").blackhole();
  const holed = performance.now();
  await alpha.run("display-message", "-p", "lost").catch(() => {});
  const noticed = performance.now() - holed;
  lab.relay("alpha").heal();

  console.log(`capture-pane, median of ${calls} (ssh per call: ${Math.min(calls, 20)}):`);
  console.log(`  one ssh per call            ${ms(median(perCallSsh))}`);
  console.log(
    `  through the link            ${ms(median(viaLink))}  (${
      (median(perCallSsh) / median(viaLink)).toFixed(0)
    }× faster)`,
  );
  console.log(`  local control connection   ${ms(median(viaLocal))}`);
  console.log(`runShell through the link     ${ms(median(shell))}`);
  console.log(`two hosts at once, per pair   ${ms(twoHosts)}`);
  console.log(
    `cut link → working call       ${ms(median(heal))} (median of 5; min ${ms(Math.min(...heal))}, max ${
      ms(Math.max(...heal))
    })`,
  );
  console.log(`black-holed link → call fails ${ms(noticed)} (keep-alives 3 s × 3)`);
} finally {
  await hosts.close();
  await local.oneShot("kill-server").catch(() => {});
  await local.close();
  await lab.close();
}
