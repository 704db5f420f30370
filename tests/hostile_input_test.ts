import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { baseArgs, type JsonSchema, stringSlots } from "./helpers/tool_schemas.ts";
import { CANARY, HOSTILE } from "./hostile_corpus.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Shell commands by contract (create_pane, execute_command ...): running them is the feature, not an injection. */
const SHELL_COMMAND_ARGS = new Set(["command"]);
const PAYLOAD_ARGS = new Set(["text", "keys", "input", "env", "command"]);
const PANE_ARGS = /^(pane_id|other_pane_id|split_from|target|pane)$/;
const BATCH = 16;
const OWN_BUFFER = /^tmuxwright-\d+-[0-9a-f]{12}$/;

/** The server-wide state no tool call with these arguments may change. */
async function invariants(server: TestServer, workspace: RegExp) {
  const run = async (...args: string[]) => (await server.tmux(...args)).stdout;
  // create_session makes sessions by design (a name is data, whatever it reads like): only ones whose panes are not
  // all this server's count.
  const panes = (await run("list-panes", "-a", "-F", "#{session_name}\x1f#{@tmuxwright_owner}")).split("\n");
  const foreign = new Set(panes.filter((l) => l && !l.endsWith(`\x1f${server.pid}`)).map((l) => l.split("\x1f")[0]));
  return {
    sessions: (await run("list-sessions", "-F", "#{session_name}")).split("\n")
      .filter((s) => !workspace.test(s) && (s === "" || foreign.has(s))),
    // load_buffer makes buffers by design; only this server's generated names may appear.
    buffers: (await run("list-buffers", "-F", "#{buffer_name}")).split("\n").filter((b) => !OWN_BUFFER.test(b)),
    // set_option sets the probe option by design (tier destructive).
    globalOptions: (await run("show-options", "-g")).split("\n").filter((l) => !l.startsWith("@tw_probe")),
    // kill tools note what they removed (@tmuxwright_removed, for PANE_GONE) by design.
    serverOptions: (await run("show-options", "-s")).split("\n").filter((l) => !l.startsWith("@tmuxwright_removed")),
    windowOptions: await run("show-options", "-w", "-g"),
    // set_environment sets the probe variable by design (tier destructive); nothing else may change.
    environment: (await run("show-environment", "-g")).split("\n").filter((l) => !/^-?tw_probe\b/.test(l)),
  };
}

async function canaries(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const base of [dir, `${dir}/state`, ROOT, "/tmp", "/", Deno.env.get("HOME") ?? "/root"]) {
    try {
      await Deno.stat(`${base}/${CANARY}`);
      found.push(`${base}/${CANARY}`);
    } catch { /* absent, as it must be */ }
  }
  return found;
}

Deno.test(`${HOSTILE.length} hostile strings in every string parameter of every tool: no injection`, async () => {
  assert.ok(HOSTILE.length >= 60);
  // Every pane runs cat, not a shell: text typed into panes can never be executed.
  await using server = await TestServer.start({
    args: ["--safety", "destructive", "--tools", "all"],
    env: { SHELL: "/bin/cat" },
  });
  const user = await server.tmux("new-session", "-d", "-s", "user", "-x", "80", "-y", "20", "cat");
  assert.equal(user.code, 0, user.stderr);
  let target = (await server.call<{ pane_id: string }>("create_pane", { command: "cat", name: "target" })).pane_id;
  const { buffer } = await server.call<{ buffer: string }>("load_buffer", { text: "probe" });
  const workspace = /^tmuxwright-\d+$/;
  const before = await invariants(server, workspace);
  const tools = (await server.client.listTools()).tools;
  let calls = 0;
  const problems: string[] = [];

  for (const tool of tools) {
    const schema = tool.inputSchema as JsonSchema;
    const slots = stringSlots(schema).filter((slot) => !SHELL_COMMAND_ARGS.has(slot.arg));
    for (const slot of slots) {
      // A tool may legitimately end the target (stop_process, kill_pane): give each slot a live one.
      const dead = await server.tmux("display-message", "-p", "-t", target, "#{pane_dead}");
      if (dead.code !== 0 || dead.stdout.trim() === "1") {
        target = (await server.call<{ pane_id: string }>("create_pane", { command: "cat" })).pane_id;
      }
      // Valid values for the other required arguments, so each hostile value reaches the handler.
      if ((await server.tmux("has-session", "-t", "=probe")).code !== 0) {
        await server.call("create_session", { name: "probe", command: "cat" });
      }
      const window = (await server.tmux("display-message", "-p", "-t", target, "#{window_id}")).stdout.trim();
      const valid: Record<string, string> = { window, session: "probe", buffer, layout: "tiled", format: "#{pane_id}" };
      const base = baseArgs(
        schema,
        (name) =>
          PANE_ARGS.test(name)
            ? target
            : name === "name" && /_option$/.test(tool.name)
            ? "@tw_probe"
            : valid[name] ?? "tw_probe",
      );
      for (let i = 0; i < HOSTILE.length; i += BATCH) {
        const results = await Promise.all(
          HOSTILE.slice(i, i + BATCH).map(async (value) => {
            const args = { ...base, ...slot.place(value) };
            return { value, ...(await server.raw(tool.name, args)) };
          }),
        );
        calls += results.length;
        for (const { value, text, isError } of results) {
          const where = `${tool.name}.${slot.path} = ${JSON.stringify(value).slice(0, 60)}`;
          if (isError) {
            if (text.length === 0 || text.length > 4000) {
              problems.push(`${where}: unclear error of ${text.length} chars`);
            }
            // deno-lint-ignore no-control-regex
            if (/[\x00-\x08\x0b-\x1f\x7f]/.test(text)) problems.push(`${where}: raw control bytes in error`);
            if (PAYLOAD_ARGS.has(slot.arg) && value.length >= 8 && text.includes(value)) {
              problems.push(`${where}: error echoes the payload`);
            }
          } else {
            try {
              JSON.parse(text);
            } catch {
              problems.push(`${where}: result is not JSON`);
            }
          }
        }
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(calls >= HOSTILE.length * 5, `only ${calls} calls`);
  assert.deepEqual(await invariants(server, workspace), before);
  assert.deepEqual(await canaries(server.dir), []);
  assert.equal((await server.tmux("show-options", "-g", "-q", "@pwned")).stdout, "");
  // The server still answers normally.
  const { panes } = await server.call<{ panes: { pane_id: string }[] }>("list_panes");
  assert.ok(panes.length > 0);
  console.log(`hostile input: ${calls} calls over ${tools.length} tools`);
});
