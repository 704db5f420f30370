/**
 * Faults that check themselves, each from a session of its own (so no actor's calls need excusing):
 * a pane whose command fails at once keeps what it printed on tmux's screen; a server SIGKILLed
 * mid-work leaves nothing behind (its panes and their processes, here at once and on the lab host
 * after its lease); the lab host's tmux killed and started again, after which the first command
 * runs exactly or fails with a coded error that names the restart.
 */
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";
import type { Rng } from "./rng.ts";
import { type Answer, Session } from "./session.ts";
import { ownedPanes } from "./leaks.ts";
import { startLeftovers } from "../../tests/helpers/leftovers.ts";

type Log = (line: string) => void;

/** The name the self-checking faults' own sessions go by in the ledger. */
export const FAULTS_ACTOR = "faults";

/**
 * A pane whose command prints a line and ends at once (status 0, 1, or 127 for a missing
 * program): once it is dead, tmux's own screen shows that line above the "Pane is dead" notice.
 */
export async function failAtOnce(fleet: Fleet, ledger: Ledger, rng: Rng, log: Log): Promise<void> {
  const token = `FAILNOW${rng.int(100_000, 999_999)}`;
  const [command, line] = rng.pick([
    [`echo ${token}; exit 0`, token],
    [`echo ${token}; exit 1`, token],
    [`${token.toLowerCase()}-missing`, `${token.toLowerCase()}-missing: command not found`],
  ]);
  const session = await Session.http(fleet);
  try {
    const made = await session.call("create_pane", { command, name: token });
    if (made.kind !== "ok") return violation(ledger, "fail-at-once: create_pane failed", made);
    const pane = String(made.json.pane_id);
    let screen = "";
    for (const deadline = performance.now() + 10_000; performance.now() < deadline;) {
      await session.call("list_panes", {}); // makes tmux reap a child whose exit it missed
      screen = (await fleet.tmux("capture-pane", "-p", "-t", pane)).stdout;
      if (/Pane is dead/.test(screen)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = screen.split("\n").map((r) => r.trimEnd()).filter((r) => r !== "");
    const at = rows.findIndex((r) => r.includes(line));
    const dead = rows.findIndex((r) => r.startsWith("Pane is dead"));
    if (dead < 0) return; // the pane went meanwhile (a local tmux killed): nothing to judge
    if (at < 0 || at > dead) {
      ledger.violation(FAULTS_ACTOR, `fail-at-once: tmux's screen of ${pane} lost "${line}": ${JSON.stringify(rows)}`);
    } else log(`fail-at-once: ${pane} (${command}) shows "${line}" above "${rows[dead]}"`);
  } finally {
    await session.end();
  }
}

/**
 * A stdio server with work here and on the lab host (panes, jobs that ignore the hang-up, a
 * command in flight) SIGKILLed mid-call: its panes and their processes are gone within a few
 * seconds here, and on the host once its lease has passed. Resolves when that was checked.
 */
export async function killMidWork(fleet: Fleet, ledger: Ledger, leaseSec: number, log: Log): Promise<void> {
  const server = await fleet.stdio();
  const left = startLeftovers();
  const hosts = fleet.lab ? [undefined, "alpha"] : [undefined];
  let instance = "";
  try {
    for (const host of hosts) {
      const made = await server.raw("create_pane", { host, command: left.foreground });
      const started = await server.raw("execute_command", { host, command: `${left.background}; echo started` });
      if (made.isError || started.isError) return; // a fault of the fleet's meanwhile: nothing to judge
      if (host === undefined) {
        const id = JSON.parse(made.text).pane_id;
        instance = (await fleet.tmux("display-message", "-p", "-t", id, "#{@tmuxwright_instance}")).stdout.trim();
      }
    }
    const inFlight = server.raw("execute_command", { command: "sleep 30; echo never", timeout_ms: 40_000 })
      .catch(() => null);
    await new Promise((r) => setTimeout(r, 300));
    const killed = performance.now();
    Deno.kill(server.pid, "SIGKILL");
    await inFlight;
    const local = async () => (await ownedPanes(fleet)).filter((p) => p.instance === instance && p.where === "");
    if (!await within(5_000, async () => (await local()).length === 0)) {
      ledger.violation(
        FAULTS_ACTOR,
        `server-kill: its panes here are left after 5 s: ${JSON.stringify(await local())}`,
      );
    }
    const since = () => `${((performance.now() - killed) / 1000).toFixed(1)} s`;
    const here = since();
    const anywhere = async () => (await ownedPanes(fleet)).filter((p) => p.instance === instance);
    const hostGrace = (leaseSec + 15) * 1000 - (performance.now() - killed);
    if (!await within(hostGrace, async () => (await anywhere()).length === 0)) {
      ledger.violation(
        FAULTS_ACTOR,
        `server-kill: its panes are left past its lease: ${JSON.stringify(await anywhere())}`,
      );
    }
    const there = since();
    if (!await within(5_000, async () => (await left.running()).length === 0)) {
      ledger.violation(FAULTS_ACTOR, `server-kill: processes it started are left: ${await left.running()}`);
    }
    log(`server-kill: panes gone here after ${here}, on the lab host after ${there}, processes after ${since()}`);
  } finally {
    left.kill();
    await server.close(false);
  }
}

/**
 * The lab host's tmux killed, then started again by whoever dials next: once the HTTP server's link
 * has seen it go, the first command there runs exactly, or fails in time with a coded error that
 * names the restart (a call racing the loss fails as a drop: not what is checked here).
 */
export async function restartHostTmux(fleet: Fleet, ledger: Ledger, log: Log): Promise<void> {
  const lab = fleet.lab!;
  // The HTTP server's whole stderr is in its log (fleet.ts): how often its link to alpha was lost.
  const lost = async () =>
    (await Deno.readTextFile(`${fleet.dir}/http-server.log`).catch(() => "")).split(
      "control connection to host alpha lost",
    )
      .length;
  const before = await lost();
  await lab.remoteTmux("alpha", "kill-server");
  await within(5_000, async () => await lost() > before);
  const session = await Session.http(fleet);
  try {
    const answer = await session.call("execute_command", {
      host: "alpha",
      command: "echo back-$((1+1))",
      timeout_ms: 20_000,
    });
    const ran = answer.kind === "ok" && answer.json.output === "back-2" && answer.json.exit_code === 0;
    const named = answer.kind === "error" && /restart/.test(answer.text);
    if (!ran && !named) violation(ledger, "host-restart: the first command after it neither ran nor said why", answer);
    if (answer.ms > 21_000) violation(ledger, "host-restart: the first command answered past its deadline", answer);
    const what = answer.kind === "ok"
      ? `ran: ${answer.json.output}`
      : answer.kind === "error"
      ? answer.text
      : "transport";
    log(`host-restart: the first command after ${Math.round(answer.ms)} ms: ${what.slice(0, 160)}`);
  } finally {
    await session.end();
  }
}

function violation(ledger: Ledger, what: string, answer: Answer): void {
  ledger.violation(FAULTS_ACTOR, what, answer);
}

/** Whether `ok` holds within `ms` (looked at every 100 ms). */
async function within(ms: number, ok: () => Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await ok()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
