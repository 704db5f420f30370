/**
 * Faults at random moments: tmux killed, the ssh link cut, the HTTP server SIGKILLed and restarted
 * on its state; and faults that check themselves (fault_checks.ts): a pane whose command fails at
 * once, a stdio server SIGKILLed mid-work, the lab host's tmux killed and started again.
 */
import { type Fleet, HOST_LEASE_SEC } from "./fleet.ts";
import type { Ledger } from "./checks.ts";
import type { Rng } from "./rng.ts";
import type { LeakWatch } from "./leaks.ts";
import { failAtOnce, FAULTS_ACTOR, killMidWork, restartHostTmux } from "./fault_checks.ts";

export type FaultMode = "all" | "gentle" | "none";

export async function injectFaults(
  fleet: Fleet,
  ledger: Ledger,
  rng: Rng,
  until: number,
  mode: FaultMode,
  leaks: LeakWatch,
  log: (line: string) => void,
): Promise<void> {
  if (mode === "none") return;
  const weights = {
    "tmux-kill": 2,
    "ssh-cut": fleet.lab ? 2 : 0,
    // A restart gives the memory back: a soak ("gentle") keeps its server, to show it stays flat.
    "http-crash": mode === "all" ? 1.5 : 0,
    "fail-at-once": 1.5,
    "server-kill": 1,
    "host-restart": fleet.lab ? 1 : 0,
  };
  const t0 = performance.now();
  // Self-checking faults whose checks go on in the background (a host's lease): awaited at the end.
  const checks: Promise<void>[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, rng.int(8_000, 20_000)));
    if (performance.now() > until - (fleet.lab ? 40_000 : 8_000)) break;
    const kind = rng.weighted(weights);
    // Only the host's restart reaches other sessions' calls; the others run in sessions of their own.
    const own = kind === "fail-at-once" || kind === "server-kill";
    const fault = ledger.fault(kind, own ? FAULTS_ACTOR : undefined);
    const failed = (error: unknown) => ledger.violation(FAULTS_ACTOR, `${kind}: ${(error as Error).message}`);
    if (kind === "tmux-kill") await fleet.killTmux();
    else if (kind === "ssh-cut") fleet.lab!.relay("alpha").cut();
    else if (kind === "http-crash") {
      await fleet.crashAndRestart();
      leaks.postpone(45_000); // a crashed owner's panes: ended by its link's end here, on the host after the lease
    } else if (kind === "fail-at-once") await failAtOnce(fleet, ledger, rng, log).catch(failed);
    else if (kind === "server-kill") checks.push(killMidWork(fleet, ledger, HOST_LEASE_SEC, log).catch(failed));
    else await restartHostTmux(fleet, ledger, log).catch(failed);
    fault.end = performance.now();
    log(`fault ${kind} at ${((fault.start - t0) / 1000).toFixed(1)} s (${Math.round(fault.end - fault.start)} ms)`);
  }
  await Promise.all(checks);
}
