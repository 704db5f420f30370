/** An actor's life: open a session, call a weighted random mix of operations, end, drop or come back. */
import type { Actor } from "./actor.ts";
import * as run from "./ops_run.ts";
import * as panes from "./ops_panes.ts";

const OPS = {
  exec: run.exec,
  send: (a: Actor) => run.typeAndWait(a, "send_keys"),
  paste: (a: Actor) => run.typeAndWait(a, "paste_text"),
  repl: run.repl,
  ready: run.processReady,
  exits: run.processExits,
  stop: run.stop,
  waitText: run.waitText,
  watch: run.watch,
  dropMidCall: run.dropMidCall,
  create: (a: Actor) => panes.createShell(a).then(() => {}),
  remote: panes.createRemote,
  split: panes.split,
  kill: panes.kill,
  rename: panes.rename,
  respawn: panes.respawn,
  capture: panes.capture,
  since: panes.captureSince,
  search: panes.search,
  logs: panes.logs,
  list: panes.list,
  state: panes.state,
  end,
  drop,
} as const;

const WEIGHTS: Record<keyof typeof OPS, number> = {
  exec: 24,
  send: 5,
  paste: 4,
  repl: 4,
  ready: 4,
  exits: 2,
  stop: 3,
  waitText: 4,
  watch: 2,
  dropMidCall: 0.7,
  create: 5,
  remote: 3,
  split: 3,
  kill: 4,
  rename: 3,
  respawn: 1,
  capture: 5,
  since: 3,
  search: 3,
  logs: 5,
  list: 3,
  state: 3,
  end: 1.2,
  drop: 0.8,
};

export async function live(a: Actor, until: number): Promise<void> {
  while (performance.now() < until) {
    if (!a.session) {
      if (a.resume) await sleep(a.rng.int(300, 3_000));
      const from = performance.now();
      try {
        await a.open();
      } catch (error) {
        if (!a.excused(from)) a.ledger.violation(a.name, `could not open a session: ${(error as Error).message}`);
        await sleep(1_000);
        continue;
      }
    }
    await OPS[a.rng.weighted(WEIGHTS)](a);
    await sleep(a.rng.int(0, 120));
  }
  if (a.session) await end(a);
}

/** Ends the session as an agent that is done: DELETE (HTTP) or closing stdin (stdio); its panes go with it. */
async function end(a: Actor): Promise<void> {
  const session = a.session;
  if (!session) return;
  a.session = null;
  await session.end();
  // A 2026 workspace has no end to ask for: its lease runs out (the idle expiry and its sweep).
  const grace = session.endsByLease ? a.fleet.idleMs * 1.25 + 10_000 : 10_000;
  a.leaks.expectGone(a.instance, grace, `${a.name} ended its ${a.via} session`);
  a.panes = [];
  a.instance = null;
}

/** Goes away without a word; an HTTP session comes back half the time (its panes still there). */
async function drop(a: Actor): Promise<void> {
  const session = a.session;
  if (!session) return;
  a.session = null;
  const resume = session.via === "http" && session.id !== undefined && a.rng.chance(0.5);
  if (resume) a.resume = { id: session.id!, generation: session.generation, instance: a.instance };
  await session.drop();
  if (!resume) a.abandoned();
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
