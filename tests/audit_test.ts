import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { AuditLog } from "../src/audit/audit.ts";

async function auditLines(path: string): Promise<Record<string, unknown>[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("--audit writes one redacted JSON line per call before the call returns", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twa" });
  const log = `${dir}/audit.jsonl`;
  await using s = await TestServer.start({ dir, args: ["--audit", log, "--audit-full", `${dir}/full`] });
  const secret = "s3cr3t-token-value";
  const pane = await s.call<{ pane_id: string }>("create_pane", {
    name: "a",
    env: { API_TOKEN: secret },
    command: `echo ${secret}; exec cat`,
  });
  // Read right after each call: the line must already be there.
  assert.equal((await auditLines(log)).length, 1);
  await s.call("send_keys", { pane_id: "a", text: `typed ${secret}` });
  assert.equal((await auditLines(log)).length, 2);
  await s.call("capture_pane", { pane_id: "a" });
  await s.callError("kill_pane", { pane_id: "%9999" });
  const lines = await auditLines(log);
  assert.deepEqual(lines.map((l) => l.tool), ["create_pane", "send_keys", "capture_pane", "kill_pane"]);
  assert.deepEqual(lines.map((l) => l.outcome), ["ok", "ok", "ok", "error"]);
  assert.equal(lines[0].pane_id, pane.pane_id);
  for (const line of lines) {
    assert.equal(line.host, "local");
    assert.equal(typeof line.ts, "string");
    assert.equal(typeof line.duration_ms, "number");
    assert.equal(typeof line.output_bytes, "number");
  }
  const args = lines[1].args as Record<string, { len: number; sha256: string }>;
  assert.equal(args.text.len, `typed ${secret}`.length);
  assert.match(args.text.sha256, /^[0-9a-f]{64}$/);
  assert.ok(!(await Deno.readTextFile(log)).includes(secret), "no payload in clear");
  const captures = [...Deno.readDirSync(`${dir}/full`)].map((e) => e.name);
  assert.deepEqual(captures, [`pane${pane.pane_id.slice(1)}-capture-001.txt`]);
});

Deno.test("every audit record names its host: the pane id's NAME:%N, an explicit host, else local", async () => {
  const dir = await Deno.makeTempDir({ prefix: "twah" });
  const audit = await AuditLog.open({ file: `${dir}/audit.jsonl`, fullDir: null, payloads: false });
  const entry = { args: {}, outcome: "ok" as const, durationMs: 1, outputBytes: 0 };
  await audit.record({ ...entry, tool: "capture_pane", paneId: "build:%3" });
  await audit.record({ ...entry, tool: "capture_pane", paneId: "%3" });
  await audit.record({ ...entry, tool: "create_pane", paneId: null, host: "stage" });
  await audit.record({ ...entry, tool: "list_panes", paneId: null });
  await audit.record({ ...entry, tool: "capture_pane", paneId: "a; id:%3" });
  audit.close();
  const hosts = (await auditLines(`${dir}/audit.jsonl`)).map((l) => l.host);
  assert.deepEqual(hosts, ["build", "local", "stage", "local", "local"]);
  await Deno.remove(dir, { recursive: true });
});
