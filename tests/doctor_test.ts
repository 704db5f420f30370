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

Deno.test("doctor names where process facts come from: /proc where readable, or the one forced", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const doctor = async (env: Record<string, string>) => {
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(env, [dir]), `${ROOT}/main.ts`, "--state-dir", `${dir}/state`, "doctor"],
      env,
    }).output();
    return new TextDecoder().decode(out.stdout).split("\n").find((line) => line.includes("process facts")) ?? "";
  };
  try {
    // This machine's own answer, as a shell sees it.
    const proc = (await new Deno.Command("sh", { args: ["-c", "[ -r /proc/self/stat ]"] }).output()).success;
    assert.match(
      await doctor(cleanEnv({ TMUXWRIGHT_PROCESS_FACTS: "" })),
      proc ? /^ok {3}process facts: proc \(/ : /^ok {3}process facts: ps \(/,
    );
    assert.match(await doctor(cleanEnv({ TMUXWRIGHT_PROCESS_FACTS: "ps" })), /^ok {3}process facts: ps \(forced/);
    assert.match(await doctor(cleanEnv({ TMUXWRIGHT_PROCESS_FACTS: "proc" })), /^ok {3}process facts: proc \(forced/);
    const wrong = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(cleanEnv(), [dir]), `${ROOT}/main.ts`, "--state-dir", `${dir}/state`, "doctor"],
      env: cleanEnv({ TMUXWRIGHT_PROCESS_FACTS: "sysctl" }),
    }).output();
    assert.match(new TextDecoder().decode(wrong.stderr), /Invalid --process-facts "sysctl": expected one of proc, ps/);
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
  const npm = launchCommand("file:///usr/lib/node_modules/tmuxwright/tmuxwright.js");
  assert.deepEqual(npm, { command: "npx", args: ["-y", "tmuxwright"] });
});
