import assert from "node:assert/strict";
import { installBlock } from "./helpers/client_setup.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The README's fenced blocks in a language, trimmed. */
async function readmeBlocks(language: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}README.md`);
  return [...text.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1].trim());
}

// The clients' tests add tmuxwright with exactly these blocks of docs/install.md (the same patterns).
Deno.test("the README's install entries for Claude Code, Codex CLI and Gemini CLI are the tested ones of docs/install.md", async () => {
  const documented = [
    ["sh", await installBlock("sh", /^claude mcp add tmuxwright -- tmuxwright$/)],
    ["toml", await installBlock("toml", /^\[mcp_servers\.tmuxwright\]\ncommand = "tmuxwright"\n/)],
    ["json", await installBlock("json", /"command": "tmuxwright",\n\s*"trust": true/)],
  ];
  for (const [language, block] of documented) {
    assert.ok((await readmeBlocks(language)).includes(block), `the README lacks the ${language} block:\n${block}`);
  }
});

Deno.test("the README's development commands are the start task and the test task of deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [commands] = await readmeBlocks("sh").then((blocks) => blocks.filter((block) => block.includes("deno task")));
  assert.match(commands, /&& deno task start$/m);
  assert.match(commands, /^deno task ok$/m);
  assert.ok(config.tasks.start && config.tasks.ok, "deno.json has the start and ok tasks");
  assert.match(config.tasks.ok, /deno task test/);
  assert.match(await Deno.readTextFile(`${ROOT}.ci/run`), /^NO_COLOR=1 deno task ok\b/m);
});
