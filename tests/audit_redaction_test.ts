import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

const SECRETS = {
  command: "echo tw-secret-command-4711; cat",
  text: "tw-secret-typed-text-0815",
  keys: ["BSpace", "PageDown"],
  env: "tw-secret-env-value-1234",
  badKey: "tw-secret-in-wrong-field",
};

async function session(server: TestServer) {
  const pane = await server.call<{ pane_id: string }>("create_pane", {
    command: SECRETS.command,
    env: { TW_TOKEN: SECRETS.env },
  });
  await server.call("send_keys", { pane_id: pane.pane_id, text: SECRETS.text, keys: SECRETS.keys });
  // A payload in an error path: an unknown key name must not come back in the error either.
  const error = await server.callError("send_keys", { pane_id: pane.pane_id, keys: [SECRETS.badKey.slice(0, 30)] });
  assert.ok(!error.includes(SECRETS.badKey.slice(0, 30)), error);
  return pane;
}

async function auditText(path: string, lines: number): Promise<string> {
  return await until(() => Deno.readTextFile(path), (t) => t.trim().split("\n").length >= lines);
}

Deno.test("audit with redaction: no command, text, keys or env value appears in the log", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const path = `${dir}/audit.jsonl`;
  await using audited = await TestServer.start({ dir, args: ["--audit", path] });
  await session(audited);
  const text = await auditText(path, 3);
  for (const secret of [SECRETS.command, SECRETS.text, SECRETS.env, SECRETS.badKey.slice(0, 30), ...SECRETS.keys]) {
    assert.ok(!text.includes(secret), `audit log contains ${secret}`);
  }
  const lines = text.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.tool), ["create_pane", "send_keys", "send_keys"]);
  assert.equal(lines[0].args.command.len, SECRETS.command.length);
  assert.match(lines[0].args.command.sha256, /^[0-9a-f]{64}$/);
  assert.match(lines[0].args.env.TW_TOKEN.sha256, /^[0-9a-f]{64}$/);
  assert.equal(lines[1].args.keys.length, 2);
  assert.equal(lines[2].outcome, "error");
});

Deno.test("audit with --audit-payloads keeps the payloads in clear", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const path = `${dir}/audit.jsonl`;
  await using audited = await TestServer.start({ dir, args: ["--audit", path, "--audit-payloads"] });
  await session(audited);
  const text = await auditText(path, 3);
  for (const secret of [SECRETS.command, SECRETS.text, SECRETS.env, ...SECRETS.keys]) {
    assert.ok(text.includes(JSON.stringify(secret).slice(1, -1)), `audit log lacks ${secret}`);
  }
});
