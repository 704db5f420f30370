/**
 * The proof an agent CLI in a pane is driven one call a turn (tests/agents_*_test.ts): the same
 * steps for each CLI, through a caller (the SDK client over stdio or HTTP) and the scripted model
 * (agent_standin.ts). Each step asserts what the issue asks of it.
 */
import assert from "node:assert/strict";
import { type AgentModel, replyTo, SLOW_MS } from "./agent_standin.ts";
import type { AgentPane, AgentProcesses } from "./agent_panes.ts";
import type { Client } from "./sdk_client.ts";

// deno-lint-ignore no-explicit-any
export type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

/** A tool call through an SDK client that must succeed, bounded (an agent's first turn waits for it to start). */
export function callerOf(client: Client): Call {
  return async (name, args) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 150_000 });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    assert.ok(!result.isError, `${name}: ${text}`);
    return JSON.parse(text);
  };
}

/** What differs between the CLIs in the proof: how its person answers its question, and the question's words. */
export interface AgentCase {
  /** send_keys arguments that choose "yes, once" in its permission question. */
  answer: Record<string, unknown>;
  /** Words its permission question shows. */
  asks: RegExp;
}

/** A turn's timeout: generous for a CLI that starts under load, bounded. */
const TURN_MS = 90_000;

/** Starts the agent CLI in a new pane (tmuxwright's own, so Claude Code gets its hooks), ended with the test. */
export async function startAgent(call: Call, setup: AgentPane, name: string, processes: AgentProcesses) {
  const { pane_id, pid } = await call("create_pane", { name, ...setup });
  processes.add(pid);
  return pane_id as string;
}

/** pane_state's status of the pane's agent CLI. */
export async function agentStatus(call: Call, pane: string) {
  return (await call("pane_state", { pane_id: pane })).status;
}

/**
 * `n` plain turns (the third of two lines), each sent with no `prompt`: every reply is the model's,
 * exactly. Returns, per turn, the time from the model's last byte to run_in_repl's answer.
 */
export async function exactTurns(call: Call, pane: string, model: AgentModel, n: number, tag: string) {
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    // One input of two lines: pasted whole, one turn.
    const input = i === 2
      ? `${tag}: two lines, turn ${i}\nand its second line`
      : `${tag}: tell me something, turn ${i}`;
    const turn = await call("run_in_repl", { pane_id: pane, input, timeout_ms: TURN_MS });
    const returned = performance.now();
    assert.equal(turn.output, replyTo(input), JSON.stringify(turn));
    assert.equal(turn.prompt_seen, true);
    assert.equal(turn.sent, true);
    const answer = model.answerTo(input);
    assert.ok(answer, `the model never answered ${input}`);
    latencies.push(returned - answer.answeredAt);
  }
  // Its screen catches up with its own signal within moments (Claude Code draws its Stop hooks running).
  await until(async () => (await agentStatus(call, pane)).state === "idle", 3_000);
  const status = await agentStatus(call, pane);
  assert.equal(status.agent_cli.activity, "idle", JSON.stringify(status));
  assert.equal(status.needs_person, false);
  return latencies;
}

/** A turn whose model answers after 5 s: returned after the answer and not before, and working meanwhile. */
export async function slowTurn(call: Call, pane: string, model: AgentModel, tag: string) {
  const input = `${tag}: take your time [slow]`;
  const started = performance.now();
  const pending = call("run_in_repl", { pane_id: pane, input, timeout_ms: TURN_MS });
  let returned = 0;
  pending.then(() => returned = performance.now(), () => {});
  // Meanwhile (the model has not answered): the pane says its agent works.
  await until(async () => (await agentStatus(call, pane)).agent_cli?.activity === "working", SLOW_MS);
  const during = await agentStatus(call, pane);
  assert.equal(returned, 0, "the turn came back before the model answered");
  assert.equal(during.state, "running");
  assert.equal(during.needs_person, false);
  const turn = await pending;
  const answer = model.answerTo(input)!;
  assert.equal(turn.output, replyTo(input));
  assert.ok(answer.answeredAt - started >= SLOW_MS - 50, `the model answered after ${answer.answeredAt - started} ms`);
  assert.ok(returned >= answer.answeredAt, "run_in_repl answered before the model did");
}

/**
 * A turn that stops on its tool's permission: returned at once as `outcome: "input"` with the
 * question; pane_state says it asks its person; send_keys answers; run_in_repl without input
 * waits for the rest of the turn, and the tool ran.
 */
export async function questionTurn(call: Call, pane: string, dir: string, kase: AgentCase, tag: string) {
  const file = `${dir}/${tag}-touched`;
  const input = `${tag}: run the tool [tool] ${file}`;
  const asked = await call("run_in_repl", { pane_id: pane, input, timeout_ms: TURN_MS });
  assert.equal(asked.outcome, "input", JSON.stringify(asked));
  assert.equal(asked.prompt_seen, false);
  assert.match(asked.question, kase.asks);
  assert.ok(asked.question.includes(`touch ${file}`), asked.question);
  assert.equal(await exists(file), false, "the tool ran before its person answered");
  const status = await agentStatus(call, pane);
  assert.equal(status.state, "waiting", JSON.stringify(status));
  assert.equal(status.agent_cli.activity, "asking");
  assert.equal(status.needs_person, true);
  assert.match(status.agent_cli.question, kase.asks);
  await call("send_keys", { pane_id: pane, ...kase.answer });
  const rest = await call("run_in_repl", { pane_id: pane, timeout_ms: TURN_MS });
  assert.equal(rest.output, `ran: ${input}`, JSON.stringify(rest));
  assert.equal(rest.prompt_seen, true);
  assert.equal(await exists(file), true, "the tool did not run after the answer");
}

/**
 * Two callers, each with an agent CLI of its own, drive a slow turn and a plain one at the same
 * time: each gets its own replies, and the slow turns overlap (neither waited for the other).
 */
export async function parallelTurns(callers: { call: Call; pane: string; tag: string }[], model: AgentModel) {
  const runs = await Promise.all(callers.map(async ({ call, pane, tag }) => {
    const input = `${tag}: slow one [slow]`;
    const start = performance.now();
    const slow = await call("run_in_repl", { pane_id: pane, input, timeout_ms: TURN_MS });
    const end = performance.now();
    assert.equal(slow.output, replyTo(input));
    const quick = `${tag}: a quick one`;
    assert.equal(
      (await call("run_in_repl", { pane_id: pane, input: quick, timeout_ms: TURN_MS })).output,
      replyTo(quick),
    );
    assert.ok(model.answerTo(input)!.answeredAt <= end);
    return { start, end };
  }));
  // Each slow turn began before the other ended: they ran side by side.
  assert.ok(Math.max(...runs.map((r) => r.start)) < Math.min(...runs.map((r) => r.end)), JSON.stringify(runs));
}

export function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function until(probe: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!await probe()) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
