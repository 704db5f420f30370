import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { CANARY, HOSTILE } from "./hostile_corpus.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Server-wide tmux state no prompt, resource or completion request may change. */
async function invariants(server: TestServer) {
  const run = async (...args: string[]) => (await server.tmux(...args)).stdout;
  return [
    await run("list-sessions", "-F", "#{session_name}"),
    await run("list-buffers", "-F", "#{buffer_name}"),
    await run("show-options", "-g"),
    await run("show-options", "-s"),
    await run("show-environment", "-g"),
  ];
}

async function settle(request: Promise<unknown>): Promise<string | null> {
  try {
    await request;
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Invalid params or not found is the answer; an internal error or anything else is a bug.
    return code === -32602 || code === -32002 ? null : `unexpected failure: ${(error as Error).message}`;
  }
}

Deno.test(`${HOSTILE.length} hostile strings in every prompt argument, resource URI and completion value`, async () => {
  await using server = await TestServer.start({ env: { SHELL: "/bin/cat" } });
  await server.call("create_pane", { command: "cat", name: "target" });
  const before = await invariants(server);
  const prompts = (await server.client.listPrompts()).prompts;
  const problems: string[] = [];
  const check = async (what: string, request: Promise<unknown>) => {
    const problem = await settle(request);
    if (problem) problems.push(`${what}: ${problem}`);
  };

  for (const value of HOSTILE) {
    for (const prompt of prompts) {
      for (const argument of prompt.arguments ?? []) {
        const args: Record<string, string> = { command: "true", services: "a: true", pane_id: "target" };
        args[argument.name] = value;
        await check(`${prompt.name}.${argument.name}`, server.client.getPrompt({ name: prompt.name, arguments: args }));
        await check(
          `complete ${prompt.name}.${argument.name}`,
          server.client.complete({
            ref: { type: "ref/prompt", name: prompt.name },
            argument: { name: argument.name, value },
          }),
        );
      }
    }
    let encoded: string;
    try {
      encoded = encodeURIComponent(value);
    } catch {
      encoded = value.replace(/[\ud800-\udfff]/g, "%ED%A0%80"); // a lone surrogate: its invalid UTF-8 bytes
    }
    for (const uri of [`tmux://panes/${encoded}`, `tmux://panes/${encoded}/content`, `tmux://panes/${encoded}/log`]) {
      await check(`read ${uri}`, server.client.readResource({ uri }));
      await check(`subscribe ${uri}`, server.client.subscribeResource({ uri }));
    }
    await check(`read raw`, server.client.readResource({ uri: `tmux://panes/${value}` }));
  }

  await server.client.ping();
  assert.deepEqual(problems, []);
  assert.deepEqual(await invariants(server), before);
  for (const base of [server.dir, ROOT, "/tmp", Deno.env.get("HOME") ?? "/root"]) {
    await assert.rejects(Deno.stat(`${base}/${CANARY}`), Deno.errors.NotFound, `${base}/${CANARY} exists`);
  }
});
