/**
 * Operations that run things, each with the answer it must get: commands with known output and
 * exit code, keys and pastes that wait for the shell, REPL turns, processes with readiness.
 */
import type { Actor, PaneRec } from "./actor.ts";
import { createShell } from "./ops_panes.ts";

const RUN_MS = 20_000;

/** A shell pane of the actor's (created when it has none). */
async function shellPane(a: Actor): Promise<PaneRec | undefined> {
  return a.pick("shell") ?? await createShell(a);
}

export async function exec(a: Actor): Promise<void> {
  const pane = a.rng.chance(0.3) ? undefined : await shellPane(a);
  const token = a.token();
  const k = a.rng.int(0, 3);
  const [command, output] = a.rng.pick([
    [`echo ${token}; (exit ${k})`, token],
    [`printf '%s\\n' ${token} ${token}b; (exit ${k})`, `${token}\n${token}b`],
    [`seq 1 ${k + 3} | tail -n 1; echo ${token}; (exit ${k})`, `${k + 3}\n${token}`],
  ]);
  const from = performance.now();
  const args = { ...(pane ? { pane_id: pane.id } : {}), command, timeout_ms: RUN_MS };
  const answer = await a.call("execute_command", args, RUN_MS);
  if (!a.settle("execute_command", answer, from, pane)) return;
  const r = answer.json;
  a.expect(r.timed_out === false, "a command of under a second timed out", answer, from);
  const exact = r.output === output && r.exit_code === k;
  a.expect(exact, `execute_command: expected ${JSON.stringify(output)} and exit ${k}`, answer, from);
  const target = pane ?? a.panes.find((p) => p.id === r.pane_id) ?? a.add(r, "shell", null, from);
  if (exact && !a.excused(from)) {
    target.token = token;
    a.ledger.loggedTokens.push(token);
  }
}

/** send_keys or paste_text of a command, waiting until the shell is back. */
export async function typeAndWait(a: Actor, tool: "send_keys" | "paste_text"): Promise<void> {
  const pane = await shellPane(a);
  if (!pane) return;
  const token = a.token();
  const from = performance.now();
  const answer = await a.call(tool, {
    pane_id: pane.id,
    text: `echo ${token}`,
    enter: true,
    wait: ["shell"],
    timeout_ms: 15_000,
  }, 15_000);
  if (!a.settle(tool, answer, from, pane)) return;
  const r = answer.json;
  const ok = r.trigger === "shell" && String(r.output ?? "").includes(token);
  a.expect(ok, `${tool} with wait shell: expected trigger shell and ${token} in the output`, answer, from);
  if (ok) pane.token = token;
}

export async function repl(a: Actor): Promise<void> {
  let pane = a.pick("repl");
  if (!pane) {
    const from = performance.now();
    const created = await a.call("create_pane", { name: `r${a.token()}`, command: "python3 -q" }, 20_000);
    if (!a.settle("create_pane", created, from)) return;
    pane = a.add(created.json, "repl", null, from);
  }
  const [x, y] = [a.rng.int(2, 999), a.rng.int(2, 999)];
  const from = performance.now();
  const answer = await a.call("run_in_repl", {
    pane_id: pane.id,
    input: `print(${x}*${y})`,
    prompt: "^>>> $",
    timeout_ms: 15_000,
  }, 15_000);
  if (!a.settle("run_in_repl", answer, from, pane)) return;
  a.expect(answer.json.output === String(x * y), `run_in_repl: expected ${x * y}`, answer, from);
}

export async function processReady(a: Actor): Promise<void> {
  const token = a.token();
  const from = performance.now();
  const answer = await a.call("start_process", {
    name: `s${token}`,
    command: `sleep 0.${a.rng.int(1, 5)}; echo READY-${token}; sleep 600`,
    ready: `^READY-${token}$`,
    timeout_ms: 15_000,
  }, 35_000); // the pane's start (its gate) comes first
  if (!a.settle("start_process", answer, from)) return;
  const r = answer.json;
  const ok = r.outcome === "ready" && r.matched_line === `READY-${token}`;
  a.expect(ok, "start_process: expected outcome ready on its line", answer, from);
  a.add(r, "proc", null, from);
}

export async function processExits(a: Actor): Promise<void> {
  const token = a.token();
  const k = a.rng.int(0, 5);
  const from = performance.now();
  const answer = await a.call("start_process", {
    command: `echo bye-${token}; exit ${k}`,
    ready: "^never-printed$",
    timeout_ms: 15_000,
  }, 35_000);
  if (!a.settle("start_process", answer, from)) return;
  const r = answer.json;
  a.expect(r.outcome === "exited" && r.exit_code === k, `start_process: expected exited with ${k}`, answer, from);
}

export async function stop(a: Actor): Promise<void> {
  const pane = a.pick("proc");
  if (!pane) return;
  const from = performance.now();
  const answer = await a.call("stop_process", { pane_id: pane.id, timeout_ms: 5_000 }, 5_000);
  if (!a.settle("stop_process", answer, from, pane)) return;
  a.expect(answer.json.stopped === true, "stop_process: expected stopped", answer, from);
  a.forget(pane);
}

export async function waitText(a: Actor): Promise<void> {
  const pane = await shellPane(a);
  if (!pane) return;
  const token = a.token();
  const from = performance.now();
  const sent = await a.call("send_keys", { pane_id: pane.id, text: `sleep 0.3; echo W${token}`, enter: true }, 10_000);
  if (!a.settle("send_keys", sent, from, pane)) return;
  const answer = await a.call("wait_for_text", {
    pane_id: pane.id,
    pattern: `^W${token}$`,
    regex: true,
    cursor: sent.json.cursor,
    timeout_ms: 10_000,
  }, 10_000);
  if (!a.settle("wait_for_text", answer, from, pane)) return;
  a.expect(answer.json.matched === true, "wait_for_text: expected the line", answer, from);
}

export async function watch(a: Actor): Promise<void> {
  const pane = a.pick("proc") ?? a.pick("shell");
  if (!pane) return;
  const from = performance.now();
  const answer = await a.call(
    "watch_pane",
    { pane_id: pane.id, triggers: ["idle:1", "exit"], timeout_ms: 4_000 },
    4_000,
  );
  a.settle("watch_pane", answer, from, pane);
}

/** A client that goes away in the middle of a command: the server must cope, the pane must go with its owner. */
export async function dropMidCall(a: Actor): Promise<void> {
  const pane = await createShell(a);
  if (!pane || !a.session) return;
  const session = a.session;
  const fault = a.ledger.fault("client-drop", a.name);
  const call = a.call(
    "execute_command",
    { pane_id: pane.id, command: "sleep 2; echo late", timeout_ms: RUN_MS },
    RUN_MS,
  );
  await new Promise((r) => setTimeout(r, a.rng.int(50, 800)));
  const resume = session.via === "http" && session.id && a.rng.chance(0.5);
  if (resume) a.resume = { id: session.id!, generation: session.generation, instance: a.instance };
  a.session = null; // the call in flight breaks because of this drop, not a fault of the server's
  await session.drop();
  await call;
  fault.end = performance.now();
  a.forget(pane); // it may still be busy with the sleep
  if (!resume) a.abandoned();
}
