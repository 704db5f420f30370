import assert from "node:assert/strict";
import { labServer } from "./helpers/lab_server.ts";
import { SshLab } from "./helpers/sshd.ts";
import { Client, ElicitRequestSchema } from "./helpers/sdk_client.ts";
import type { ExecResult } from "./helpers/results.ts";
import { policyFile, removePolicyFile } from "./helpers/policy.ts";

/** Remote panes (real OpenSSH) are under the same policy: judged here, before anything reaches the host. */
Deno.test({
  name: "a remote host's panes are under the same command policy",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    const policy = await policyFile({ default: "allow", deny: ["touch *"], ask: ["echo asked *"] });
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
    const client = new Client({ name: "asker", version: "1" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { decision: "once" } };
    });
    const server = await labServer(lab, ["alpha"], {
      dir,
      client,
      args: ["--audit", `${dir}/audit.jsonl`],
      env: { TMUXWRIGHT_POLICY: policy },
    });
    try {
      const remotePanes = async () => (await lab.remoteTmux("alpha", "list-panes", "-a")).stdout.split("\n").length;
      const { pane_id: pane } = await server.call<{ pane_id: string }>("create_pane", { host: "alpha" });
      assert.match(pane, /^alpha:%\d+$/);
      await server.call("execute_command", { pane_id: pane, command: "echo ready" });
      const before = await remotePanes();
      const marker = `${lab.dir}/remote-ran`;
      for (
        const [tool, args] of [
          ["execute_command", { pane_id: pane, command: `echo a; touch ${marker}` }],
          ["send_keys", { pane_id: pane, text: `sh -c 'touch ${marker}'` }],
          ["create_pane", { host: "alpha", command: `touch ${marker}` }],
          ["start_process", { host: "alpha", command: `nohup touch ${marker}` }],
        ] as const
      ) {
        const error = await server.callError(tool, args);
        assert.match(error, /POLICY_DENIED/, `${tool}: ${error}`);
      }
      assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
      assert.equal(await remotePanes(), before, "a pane was made on the host");
      const screen = await server.call<{ text: string }>("capture_pane", { pane_id: pane });
      assert.ok(!screen.text.includes("touch"), screen.text);

      const ran = await server.call<ExecResult>("execute_command", { pane_id: pane, command: "echo asked remote" });
      assert.equal(ran.output, "asked remote");
      assert.equal(asked.length, 1);
      assert.match(asked[0], /on host alpha/);
      const audit = (await Deno.readTextFile(`${dir}/audit.jsonl`)).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      ).filter((l) => l.event === "policy" && l.outcome !== "allowed");
      assert.deepEqual(audit.map((l) => [l.host, l.outcome]), [
        ["alpha", "denied"],
        ["alpha", "denied"],
        ["alpha", "denied"],
        ["alpha", "denied"],
        ["alpha", "once"],
      ]);
    } finally {
      await server.close();
      await lab.close();
      await removePolicyFile(policy);
    }
  },
});
