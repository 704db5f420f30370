import assert from "node:assert/strict";
import { cleanEnv, startPermissions } from "./helpers/harness.ts";
import { launchCommand } from "../src/cli/doctor.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("doctor from a checkout prints client snippets that start this checkout", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(cleanEnv(), [dir]), `${ROOT}/main.ts`, "--state-dir", `${dir}/state`, "doctor"],
      env: cleanEnv(),
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.match(text, new RegExp(`claude mcp add tmuxwright -- deno task -q --config ${ROOT}/deno.json start`));
    const json = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
    assert.deepEqual(json.mcpServers.tmuxwright, {
      command: "deno",
      args: ["task", "-q", "--config", `${ROOT}/deno.json`, "start"],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's snippet: the bundle starts its checkout's task, the compiled binary itself, the npm package npx", () => {
  assert.deepEqual(launchCommand("file:///src/tw/dist/tmuxwright.js").args, [
    "task",
    "-q",
    "--config",
    "/src/tw/deno.json",
    "start",
  ]);
  const binary = launchCommand("file:///tmp/deno-compile-tmuxwright/main.ts");
  assert.deepEqual(binary, { command: Deno.execPath(), args: [] });
  // The npm package (global, local or npx's cache): the one line every client takes.
  const npm = launchCommand("file:///usr/lib/node_modules/tmuxwright/server/main.js");
  assert.deepEqual(npm, { command: "npx", args: ["-y", "tmuxwright"] });
  // What deno task start runs: the checkout's own build.
  assert.deepEqual(launchCommand("file:///src/tw/dist/start/server/main.js").args, [
    "task",
    "-q",
    "--config",
    "/src/tw/deno.json",
    "start",
  ]);
});
