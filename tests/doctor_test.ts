import assert from "node:assert/strict";
import { cleanEnv, startPermissions } from "./helpers/harness.ts";
import { launchCommand } from "../src/cli/doctor.ts";
import { claudeCodeSnippet, codexSnippet, geminiSnippet, mcpServersSnippet } from "../src/cli/client_snippets.ts";
import { installBlocks } from "./helpers/client_setup.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("doctor from a checkout prints every client's snippet, starting this checkout", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(cleanEnv(), [dir]), `${ROOT}/main.ts`, "--state-dir", `${dir}/state`, "doctor"],
      env: cleanEnv(),
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const launch = { command: "deno", args: ["task", "-q", "--config", `${ROOT}/deno.json`, "start"] };
    assert.match(text, new RegExp(`claude mcp add tmuxwright -- deno task -q --config ${ROOT}/deno.json start`));
    for (const snippet of [claudeCodeSnippet, codexSnippet, geminiSnippet, mcpServersSnippet]) {
      assert.ok(text.includes(snippet(launch)), `${snippet.name} missing from:\n${text}`);
    }
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

Deno.test("docs/install.md shows each client the snippet doctor prints for the installed command", async () => {
  const launch = { command: "tmuxwright", args: [] };
  assert.ok((await installBlocks("sh")).includes(claudeCodeSnippet(launch)));
  assert.ok((await installBlocks("toml")).includes(codexSnippet(launch)));
  const json = await installBlocks("json");
  assert.ok(json.includes(geminiSnippet(launch)), geminiSnippet(launch));
  assert.ok(json.includes(mcpServersSnippet(launch)), mcpServersSnippet(launch));
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
