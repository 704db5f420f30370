import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import type { ExecResult } from "./helpers/results.ts";
import { policyFile, removePolicyFile } from "./helpers/policy.ts";

/**
 * The command policy at every door, on real tmux through the official SDK client: a denied
 * command is refused with POLICY_DENIED naming the rule, and the pane is untouched (nothing
 * typed, nothing run, no pane made). The policy file lies outside the test's directory, so only
 * `deno task start`'s own permission line lets the server read it.
 */
const POLICY = { default: "allow", deny: ["touch *", "rm -rf *"], ask: ["echo asked *"] };

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test({
  name: "every door refuses a denied command and leaves the pane untouched",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const policy = await policyFile(POLICY);
    const server = await TestServer.start({
      env: { TMUXWRIGHT_POLICY: policy },
      args: ["--tools", "all", "--safety", "destructive"],
    });
    const marker = `${server.dir}/ran`;
    const denied = `touch ${marker}`;
    try {
      const { pane_id: pane } = await server.call<{ pane_id: string }>("create_pane", { name: "sh" });
      await server.call("execute_command", { pane_id: pane, command: "echo ready" });
      const paneCount = async () => (await server.tmux("list-panes", "-a")).stdout.split("\n").length;
      const panesBefore = await paneCount();
      const untouched = async () => {
        assert.equal(await exists(marker), false, "the denied command ran");
        const screen = await server.call<{ text: string }>("capture_pane", { pane_id: pane });
        assert.ok(!screen.text.includes("touch"), `typed into the pane:\n${screen.text}`);
        assert.equal(await paneCount(), panesBefore, "a pane was made");
      };
      const refused = async (tool: string, args: Record<string, unknown>) => {
        const error = await server.callError(tool, args);
        assert.match(error, /POLICY_DENIED/, error);
        assert.match(error, /rule "touch \*"/, error);
        assert.ok(!error.includes(marker), `the error echoes the command: ${error}`);
        await untouched();
      };

      await t.step("execute_command", () => refused("execute_command", { pane_id: pane, command: denied }));
      await t.step("start_process (no pane is made)", () => refused("start_process", { command: denied }));
      await t.step("start_process in a pane", () => refused("start_process", { pane_id: pane, command: denied }));
      await t.step("create_pane with a command", () => refused("create_pane", { command: denied }));
      await t.step("create_pane with env that runs code", async () => {
        await refused("create_pane", { env: { PROMPT_COMMAND: denied } });
        const error = await server.callError("create_pane", { env: { BASH_ENV: `${server.dir}/x.sh` } });
        assert.match(error, /POLICY_ASK_UNAVAILABLE/, error);
        await untouched();
      });
      await t.step("set_environment: PROMPT_COMMAND for shells started later", async () => {
        await refused("set_environment", { name: "PROMPT_COMMAND", value: denied });
        const env = await server.tmux("show-environment", "-g", "PROMPT_COMMAND");
        assert.ok(!env.stdout.includes("touch"), env.stdout);
      });
      await t.step("split_pane", () => refused("split_pane", { pane_id: pane, direction: "right", command: denied }));
      await t.step("create_window", () => refused("create_window", { command: denied }));
      await t.step("create_session", () => refused("create_session", { command: denied }));
      await t.step("respawn_pane", () => refused("respawn_pane", { pane_id: pane, command: denied }));
      await t.step("send_keys text (Enter by default)", () => refused("send_keys", { pane_id: pane, text: denied }));
      await t.step("send_keys text without Enter", () => {
        return refused("send_keys", { pane_id: pane, text: denied, enter: false });
      });
      await t.step("send_keys: a line typed in pieces is judged whole at its Enter", async () => {
        await server.call("send_keys", { pane_id: pane, text: "tou", enter: false });
        const error = await server.callError("send_keys", { pane_id: pane, text: `ch ${marker}` });
        assert.match(error, /POLICY_DENIED/);
        assert.equal(await exists(marker), false);
        await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
      });
      await t.step("send_keys: recalled history then Enter cannot be seen: ask, and no client to ask", async () => {
        const error = await server.callError("send_keys", { pane_id: pane, keys: ["Up", "Enter"] });
        assert.match(error, /POLICY_ASK_UNAVAILABLE/);
      });
      await t.step("paste_text", () => refused("paste_text", { pane_id: pane, text: `${denied}\n`, enter: true }));
      await t.step("run_in_repl into a shell", () => {
        return refused("run_in_repl", { pane_id: pane, input: denied, prompt: "\\$ $" });
      });
      await t.step("paste_buffer of a loaded buffer", async () => {
        const { buffer } = await server.call<{ buffer: string }>("load_buffer", { text: denied });
        await refused("paste_buffer", { pane_id: pane, buffer });
      });
      await t.step("chains, substitutions and wrappers are seen through", async () => {
        for (
          const command of [
            `echo a && ${denied}`,
            `false || (${denied})`,
            `echo $(${denied})`,
            `bash -c '${denied}'`,
            `env A=1 nice -n 1 timeout 5 ${denied}`,
            `echo ${marker} | xargs touch`,
            `eval "${denied}"`,
            `if true; then ${denied}; fi`,
            `/usr/bin/touch ${marker}`,
          ]
        ) {
          const error = await server.callError("execute_command", { pane_id: pane, command });
          assert.match(error, /POLICY_DENIED/, command);
        }
        await untouched();
      });
      await t.step("allowed commands run as before", async () => {
        const ok = await server.call<ExecResult>("execute_command", {
          pane_id: pane,
          command: "echo fine | tr a-z A-Z",
        });
        assert.equal(ok.output, "FINE");
      });
      await t.step("input to a program that is not a shell is not judged", async () => {
        await server.call("send_keys", { pane_id: pane, text: "cat" });
        await until(
          () => server.call<{ foreground_command: string }>("pane_state", { pane_id: pane }),
          (s) => s.foreground_command === "cat",
        );
        await server.call("send_keys", { pane_id: pane, text: `${denied} is only text here` });
        await until(
          () => server.call<{ text: string }>("capture_pane", { pane_id: pane }),
          (screen) => screen.text.includes("is only text here"),
        );
        assert.equal(await exists(marker), false);
        await server.call("send_keys", { pane_id: pane, keys: ["C-c"] });
      });
    } finally {
      await server.close();
      await removePolicyFile(policy);
    }
  },
});
