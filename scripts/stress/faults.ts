/** Faults at random moments: tmux killed, the ssh link cut, the HTTP server SIGKILLed and restarted on its state. */
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";
import type { Rng } from "./rng.ts";
import type { LeakWatch } from "./leaks.ts";

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
  };
  const t0 = performance.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, rng.int(8_000, 20_000)));
    if (performance.now() > until - 8_000) return;
    const kind = rng.weighted(weights);
    const fault = ledger.fault(kind);
    if (kind === "tmux-kill") await fleet.killTmux();
    else if (kind === "ssh-cut") fleet.lab!.relay("alpha").cut();
    else {
      await fleet.crashAndRestart();
      leaks.postpone(45_000); // a crashed owner's panes: reaped at the restart, on the host by the lease
    }
    fault.end = performance.now();
    log(`fault ${kind} at ${((fault.start - t0) / 1000).toFixed(1)} s (${Math.round(fault.end - fault.start)} ms)`);
  }
}
