import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { PLAIN_BASH } from "./helpers/shell_pane.ts";
import { ALL_TOOLS } from "../src/mcp/tools/mod.ts";

const PROMPTS = [
  "run_and_wait",
  "diagnose_failing_pane",
  "build_dev_workspace",
  "interrupt_gracefully",
  "debug_with_panes",
];

async function render(server: TestServer, name: string, args: Record<string, string> = {}): Promise<string> {
  const result = await server.client.getPrompt({ name, arguments: args });
  assert.equal(result.messages.length, 1);
  assert.equal(result.messages[0].role, "user");
  const content = result.messages[0].content;
  assert.equal(content.type, "text");
  return content.type === "text" ? content.text : "";
}

/** Every tool a text names, written as `prefix + tool`: all must be tools the server lists. */
async function assertNamesListedTools(server: TestServer, text: string, prefix: string): Promise<string[]> {
  const listed = new Set((await server.client.listTools()).tools.map((t) => t.name));
  const named = ALL_TOOLS.map((t) => prefix + t.name).filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  assert.ok(named.length > 0, `no tool named in: ${text}`);
  for (const name of named) assert.ok(listed.has(name), `${name} is named but not listed`);
  // No bare (unprefixed) tool names left.
  if (prefix !== "") {
    for (const tool of ALL_TOOLS) assert.doesNotMatch(text, new RegExp(`\`${tool.name} `), `bare ${tool.name}`);
  }
  return named;
}

Deno.test("prompts: each is listed with typed arguments and rendered with prefixed tool names", async () => {
  await using server = await TestServer.start({ args: ["--tool-prefix", "tmux_"] });
  const prompts = (await server.client.listPrompts()).prompts;
  assert.deepEqual(prompts.map((p) => p.name), PROMPTS);
  const run = prompts.find((p) => p.name === "run_and_wait")!;
  assert.deepEqual(run.arguments?.map((a) => [a.name, a.required]), [
    ["command", true],
    ["pane_id", false],
    ["timeout_ms", false],
  ]);

  const { pane_id } = await server.call<{ pane_id: string }>("tmux_create_pane", { name: "web", command: PLAIN_BASH });
  const window = (await server.tmux("display-message", "-p", "-t", pane_id, "#{window_id}")).stdout.trim();

  const runText = await render(server, "run_and_wait", { command: "make test", pane_id: "web", timeout_ms: "9000" });
  assert.match(runText, /tmux_execute_command \{"command":"make test","pane_id":"web","timeout_ms":9000\}/);
  assert.match(runText, new RegExp(`Pane ${pane_id} \\("web"\\).*created by this server, (is running|has exited)`));
  await assertNamesListedTools(server, runText, "tmux_");

  const diagnose = await render(server, "diagnose_failing_pane", { pane_id: "web" });
  assert.deepEqual(await assertNamesListedTools(server, diagnose, "tmux_"), [
    "tmux_capture_pane",
    "tmux_pane_state",
    "tmux_read_logs",
  ]);
  const find = await render(server, "diagnose_failing_pane", { session: "main" });
  assert.match(find, /tmux_list_panes \{"session":"main"\}/);
  assert.match(find, /tmux_search_panes/);

  const workspace = await render(server, "build_dev_workspace", {
    services: "web2: npm run dev\napi: python3 -m http.server 8000",
    cwd: "/srv/it's here",
  });
  assert.match(workspace, /tmux_start_process \{"command":"cd '\/srv\/it'\\\\''s here' && npm run dev","name":"web2"/);
  assert.match(workspace, /- api: `python3 -m http.server 8000`/);
  await assertNamesListedTools(server, workspace, "tmux_");
  const split = await render(server, "build_dev_workspace", { services: "db: redis-server", window });
  assert.match(split, new RegExp(`tmux_split_pane \\{"pane_id":"${pane_id}","direction":"right","name":"db"\\}`));

  const interrupt = await render(server, "interrupt_gracefully", { pane_id: "web", grace_ms: "2000" });
  assert.match(
    interrupt,
    new RegExp(`tmux_stop_process \\{"pane_id":"${pane_id}","signal":"SIGINT","timeout_ms":2000\\}`),
  );
  assert.ok(
    interrupt.indexOf("SIGINT") < interrupt.indexOf("SIGTERM") &&
      interrupt.indexOf("SIGTERM") < interrupt.indexOf("SIGKILL"),
  );
  await assertNamesListedTools(server, interrupt, "tmux_");

  const debug = await render(server, "debug_with_panes", {
    command: "python3 -m http.server 8123",
    client_command: "curl -s localhost:8123",
    ready: "Serving HTTP",
  });
  assert.match(
    debug,
    /tmux_start_process \{"command":"python3 -m http.server 8123","name":"debug-server","ready":"Serving HTTP"\}/,
  );
  assert.match(debug, /tmux_execute_command \{"command":"curl -s localhost:8123"\}/);
  await assertNamesListedTools(server, debug, "tmux_");
});

Deno.test("prompts: bad and unknown arguments are clear errors; panes are checked live", async () => {
  await using server = await TestServer.start();
  const error = (name: string, args: Record<string, string>) =>
    server.client.getPrompt({ name, arguments: args }).then(
      () => "",
      (e: Error & { code: number }) => `${e.code} ${e.message}`,
    );
  assert.match(await error("run_and_wait", {}), /-32602 .*Invalid arguments for prompt run_and_wait: command:/);
  assert.match(await error("run_and_wait", { command: "ls", timeout_ms: "soon" }), /timeout_ms: expected a number/);
  assert.match(await error("run_and_wait", { command: "ls", colour: "red" }), /colour: not an argument of this prompt/);
  assert.match(
    await error("interrupt_gracefully", { pane_id: "ghost" }),
    /-32602 .*PANE_NOT_FOUND: Pane "ghost" not found/,
  );
  assert.match(
    await error("build_dev_workspace", { services: "just a command" }),
    /services line 1: expected "name: command"/,
  );
  assert.match(await error("build_dev_workspace", { services: "a: b", window: "@999" }), /Window "@999" not found/);
  assert.match(await error("no_such_prompt", {}), /Prompt "no_such_prompt" not found: offered are run_and_wait/);
});

Deno.test("prompts: the core profile's prompts use only its five tools; readonly hides prompts that need to act", async () => {
  {
    await using core = await TestServer.start({ args: ["--tools", "core", "--tool-prefix", "t_"] });
    const names = (await core.client.listPrompts()).prompts.map((p) => p.name);
    assert.deepEqual(names, PROMPTS);
    await core.call("t_create_pane", { name: "busy", command: PLAIN_BASH });
    for (
      const [name, args] of [
        ["run_and_wait", { command: "make" }],
        ["interrupt_gracefully", { pane_id: "busy" }],
        ["diagnose_failing_pane", {}],
        ["build_dev_workspace", { services: "web: npm start" }],
        ["debug_with_panes", { command: "node server.js" }],
      ] as const
    ) {
      const named = await assertNamesListedTools(core, await render(core, name, args), "t_");
      assert.ok(named.every((n) => ["t_create_pane", "t_send_keys", "t_capture_pane", "t_list_panes"].includes(n)));
    }
  }
  {
    await using readonly = await TestServer.start({ args: ["--safety", "readonly"] });
    const names = (await readonly.client.listPrompts()).prompts.map((p) => p.name);
    assert.deepEqual(names, ["diagnose_failing_pane"]);
    assert.match(
      await readonly.client.getPrompt({ name: "run_and_wait", arguments: { command: "ls" } }).then(
        () => "",
        (e: Error) => e.message,
      ),
      /Prompt "run_and_wait" not found: offered are diagnose_failing_pane/,
    );
  }
});
