import assert from "node:assert/strict";
import { type TestServer, until } from "./harness.ts";

/** What a host shows: its link hubs (`tmuxwright-link-…` sessions), and its clients' `list-clients` lines. */
export interface HostLook {
  hubs(): Promise<string[]>;
  clients(): Promise<string>;
}

/**
 * Kills `server` (SIGKILL), whose link hub on a host is `hub`: its link's client leaves the host
 * at once, the hub is kept while its lease runs, then a server still alive there reaps it, not
 * before the lease less one renewal tick (TTL / 3) and the host's whole seconds.
 */
export async function killAndAwaitLease(server: TestServer, hub: string, leaseSec: number, look: HostLook) {
  const died = performance.now();
  Deno.kill(server.pid, "SIGKILL"); // its link ends with it: no client of its hub is left on the host
  await until(() => look.clients(), (clients) => !clients.includes(hub));
  assert.ok((await look.hubs()).includes(hub), "kept while its lease runs");
  await until(() => look.hubs(), (hubs) => !hubs.includes(hub), (leaseSec + 10) * 1000);
  const after = (performance.now() - died) / 1000;
  // The last renewal can be one tick (TTL / 3) before the death, and the host counts whole seconds.
  assert.ok(after >= leaseSec - leaseSec / 3 - 1.2, `reaped after ${after.toFixed(1)} s, before its lease ran out`);
}
