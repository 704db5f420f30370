import assert from "node:assert/strict";
import { cleanEnv, startPermissions, tmuxAt } from "./helpers/harness.ts";
import { inspectorLauncher } from "./helpers/inspector.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/**
 * Drives the server with the official MCP Inspector CLI as a user would: it starts the server
 * itself over stdio (with the few variables it passes on: no LANG, no TMUXWRIGHT_*), calls one
 * method and prints the JSON answer.
 */
Deno.test("MCP Inspector CLI: tools/list and an execute_command call succeed", async () => {
  const launcher = await inspectorLauncher();
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const env = cleanEnv({ MCP_CATALOG_PATH: `${dir}/inspector-catalog.json` });
  const inspect = async (...method: string[]) => {
    const out = await new Deno.Command("node", {
      args: [
        launcher,
        "--cli",
        "-e",
        `DENO_DIR=${env.DENO_DIR}`,
        "-e",
        "TMUXWRIGHT_TMUX_CONFIG=/dev/null",
        "deno",
        "run",
        ...startPermissions(env, [dir]),
        MAIN,
        "--socket-path",
        `${dir}/s`,
        "--state-dir",
        `${dir}/state`,
        ...method,
      ],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, `inspector ${method.join(" ")}: ${stdout}\n${new TextDecoder().decode(out.stderr)}`);
    return JSON.parse(stdout);
  };
  try {
    const listed = await inspect("--method", "tools/list");
    const names = listed.tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes("execute_command") && names.includes("create_pane"), names.join());
    for (const tool of listed.tools) assert.equal(tool.inputSchema.type, "object", tool.name);

    const called = await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "execute_command",
      "--tool-arg",
      "command=echo hello from the inspector",
    );
    assert.notEqual(called.isError, true, JSON.stringify(called));
    assert.deepEqual(
      [called.structuredContent.output, called.structuredContent.exit_code],
      ["hello from the inspector", 0],
    );
  } finally {
    await tmuxAt(`${dir}/s`, "kill-server").catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
