import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

// MCP clients often start servers with a minimal environment (no LANG). A tmux client without a
// UTF-8 locale prints control characters as "_", which would break every field list.
Deno.test("works when started without a UTF-8 locale", async () => {
  await using server = await TestServer.start({ env: { LANG: "", LC_ALL: "", LC_CTYPE: "" } });
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { name: "plain" });
  const { panes } = await server.call<{ panes: { pane_id: string; name: string }[] }>("list_panes");
  assert.deepEqual(panes.map((p) => [p.pane_id, p.name]), [[pane_id, "plain"]]);
  const tree = await server.client.readResource({ uri: "tmux://sessions" });
  assert.match("text" in tree.contents[0] ? tree.contents[0].text : "", /"name":"plain"/);
});

// The MCP SDK passes only HOME, LOGNAME, PATH, SHELL, TERM and USER to a server it starts.
Deno.test("without LANG or LC_* at all, output with UTF-8 text comes back exact", async () => {
  await using server = await TestServer.start({ unset: ["LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE"] });
  const run = await server.call<{ output: string; exit_code: number }>("execute_command", {
    command: "printf 'h\\303\\251llo \\342\\202\\254\\n'",
  });
  assert.deepEqual([run.output, run.exit_code], ["héllo €", 0]);
  const screen = await server.call<{ text: string }>("capture_pane", { pane_id: "default" });
  assert.match(screen.text, /héllo €/);
});
