/**
 * Operations on panes themselves, each with the answer it must get: create (here and on the lab
 * host), split, kill, rename, respawn, capture, incremental reads, search, logs, list and state.
 */
import type { Actor, PaneRec } from "./actor.ts";

const MAX_PANES = 5;

export async function createShell(a: Actor, host?: string): Promise<PaneRec | undefined> {
  if (a.panes.length >= MAX_PANES) await kill(a);
  const name = `p${a.token()}`;
  const from = performance.now();
  const answer = await a.call("create_pane", { name, ...(host ? { host } : {}) }, 20_000);
  if (!a.settle("create_pane", answer, from)) return undefined;
  const r = answer.json;
  const id = host ? new RegExp(`^${host}:%\\d+$`) : /^%\d+$/;
  a.expect(r.name === name && id.test(String(r.pane_id)), "create_pane: expected its name and id", answer, from);
  return a.add(r, "shell", host ?? null, from);
}

export async function createRemote(a: Actor): Promise<void> {
  if (!a.fleet.lab || a.panes.some((p) => p.host !== null)) return;
  await createShell(a, "alpha");
}

export async function split(a: Actor): Promise<void> {
  const from = a.pick("shell");
  if (!from || a.panes.length >= MAX_PANES) return;
  const name = `q${a.token()}`;
  const t = performance.now();
  const direction = a.rng.pick(["right", "below", "left", "above"]);
  const answer = await a.call("split_pane", { pane_id: from.id, direction, name }, 20_000);
  if (!a.settle("split_pane", answer, t, from)) return;
  a.expect(answer.json.name === name, "split_pane: expected its name", answer, t);
  a.add(answer.json, "shell", from.host, t);
}

export async function kill(a: Actor): Promise<void> {
  if (a.panes.length === 0) return;
  const pane = a.rng.pick(a.panes);
  const from = performance.now();
  const answer = await a.call("kill_pane", { pane_id: pane.id }, 10_000);
  if (!a.settle("kill_pane", answer, from, pane)) return;
  a.forget(pane);
  a.expect(answer.json.killed === true, "kill_pane: expected killed", answer, from);
  const after = await a.call("capture_pane", { pane_id: pane.id }, 10_000);
  const gone = after.kind === "error" && after.code === "PANE_NOT_FOUND";
  a.expect(gone, "a killed pane must be PANE_NOT_FOUND", after, from);
}

export async function rename(a: Actor): Promise<void> {
  const pane = a.pick("shell") ?? a.pick("proc");
  if (!pane) return;
  const title = a.token();
  const from = performance.now();
  const titled = await a.call("set_pane_title", { pane_id: pane.id, title }, 10_000);
  if (!a.settle("set_pane_title", titled, from, pane)) return;
  if (pane.host !== null || pane.window === null) return;
  const renamed = await a.call("rename_window", { window: pane.window, name: title }, 10_000);
  a.settle("rename_window", renamed, from, pane);
}

export async function respawn(a: Actor): Promise<void> {
  const pane = a.pick("shell");
  if (!pane || pane.host !== null) return;
  const from = performance.now();
  const answer = await a.call("respawn_pane", { pane_id: pane.id }, 10_000);
  if (!a.settle("respawn_pane", answer, from, pane)) return;
  pane.token = undefined; // the screen starts again (the log keeps everything)
}

export async function capture(a: Actor): Promise<void> {
  const pane = a.panes.length > 0 ? a.rng.pick(a.panes) : undefined;
  if (!pane) return;
  const from = performance.now();
  const answer = await a.call("capture_pane", { pane_id: pane.id }, 10_000);
  a.settle("capture_pane", answer, from, pane);
}

export async function captureSince(a: Actor): Promise<void> {
  const pane = a.pick("shell");
  if (!pane) return;
  const from = performance.now();
  const first = await a.call("capture_since", { pane_id: pane.id }, 10_000);
  if (!a.settle("capture_since", first, from, pane)) return;
  const token = a.token();
  const ran = await a.call(
    "execute_command",
    { pane_id: pane.id, command: `echo ${token}`, timeout_ms: 20_000 },
    20_000,
  );
  if (!a.settle("execute_command", ran, from, pane)) return;
  const next = await a.call("capture_since", { cursor: first.json.cursor }, 10_000);
  if (!a.settle("capture_since", next, from, pane)) return;
  const text = `${next.json.text ?? ""}\n${next.json.pending ?? ""}`;
  a.expect(text.includes(token), `capture_since: expected ${token} since the cursor`, next, from);
}

export async function search(a: Actor): Promise<void> {
  const pane = a.panes.find((p) => p.token !== undefined && p.host === null);
  if (!pane) return;
  const from = performance.now();
  const answer = await a.call("search_panes", { pattern: pane.token!, scrollback: 5000 }, 10_000);
  if (!a.settle("search_panes", answer, from, pane)) return;
  const matches = (answer.json.matches ?? []) as { pane_id?: string }[];
  const found = matches.some((m) => m.pane_id === pane.id);
  a.expect(
    found || answer.json.truncated === true,
    `search_panes: expected ${pane.id} for ${pane.token}`,
    answer,
    from,
  );
}

export async function logs(a: Actor): Promise<void> {
  const pane = a.panes.find((p) => p.token !== undefined);
  if (!pane) return;
  const token = pane.token!;
  const from = performance.now();
  for (let attempt = 0;; attempt++) {
    const answer = await a.call("read_logs", { pane_id: pane.id, lines: 400 }, 10_000);
    if (!a.settle("read_logs", answer, from, pane)) return;
    if (String(answer.json.content ?? "").includes(token)) return;
    if (attempt === 6) return a.expect(false, `read_logs: ${token} is not in the log`, answer, from);
    await new Promise((r) => setTimeout(r, 500)); // the log pipe writes a moment after the screen
  }
}

export async function list(a: Actor): Promise<void> {
  const from = performance.now();
  const answer = await a.call("list_panes", {}, 10_000);
  if (!a.settle("list_panes", answer, from)) return;
  const listed = new Set(((answer.json.panes ?? []) as { pane_id: string }[]).map((p) => p.pane_id));
  const missing = a.panes.filter((p) =>
    p.host === null && p.born < from && !listed.has(p.id) && a.ledger.faultsSince(p.born, ["tmux-kill"]) === 0
  );
  a.expect(missing.length === 0, `list_panes: ${missing.map((p) => p.id).join(", ")} missing`, answer, from);
}

export async function state(a: Actor): Promise<void> {
  const pane = a.panes.length > 0 ? a.rng.pick(a.panes) : undefined;
  if (!pane) return;
  const from = performance.now();
  const answer = await a.call("pane_state", { pane_id: pane.id }, 10_000);
  a.settle("pane_state", answer, from, pane);
}
