import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

// MCP clients often start servers with a few variables only (the MCP SDK passes HOME, LOGNAME,
// PATH, SHELL, TERM and USER): no LANG, so tmux clients would run in the C locale, where tmux
// writes control characters and non-ASCII text as "_".
Deno.test("without LANG or LC_* the server still reads tmux exactly: ids, UTF-8 text", async () => {
  await using server = await TestServer.start({ unset: ["LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE"] });
  const run = await server.call<{ output: string; exit_code: number }>("execute_command", {
    command: "printf 'h\\303\\251llo \\342\\202\\254\\n'",
  });
  assert.deepEqual([run.output, run.exit_code], ["héllo €", 0]);
  const { panes } = await server.call<{ panes: { name: string | null; pane_id: string }[] }>("list_panes");
  assert.ok(panes.some((p) => p.name === "default" && /^%\d+$/.test(p.pane_id)), JSON.stringify(panes));
  const screen = await server.call<{ text: string }>("capture_pane", { pane_id: "default" });
  assert.match(screen.text, /héllo €/);
});
