import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import { AgentModel } from "./helpers/agent_standin.ts";
import { AgentProcesses, claudePane, codexPane, geminiPane } from "./helpers/agent_panes.ts";
import { callerOf } from "./helpers/agent_proof.ts";

// The wall in a real headless Chromium while an orchestrator drives three agent CLIs through
// run_in_repl: Claude Code asking its person about a tool, Codex CLI working on a turn its model
// holds, Gemini CLI idle after its turn. Each tile says which, and the question is first.

type Tile = { pane: string; state: string; needs: string; badge: string };
const TILES = `[...document.querySelectorAll("#tiles article.tile")].map((t) => ({
  pane: t.dataset.pane, state: t.dataset.state, needs: t.dataset.needs, badge: t.querySelector(".badge").textContent }))`;

Deno.test("watch wall: agent CLIs working, idle waiting for their user, asking their person (first, needs you)", async () => {
  await using processes = new AgentProcesses();
  await using server = await HttpMcpServer.start();
  await using model = AgentModel.start();
  processes.dir = server.dir;
  const { client } = await server.client({}, { name: "orchestrator", version: "1.0.0" });
  const call = callerOf(client);
  const start = async (name: string, make: typeof claudePane) => {
    const { pane_id, pid } = await call("create_pane", { name, ...await make(`${server.dir}/${name}`, model.url) });
    processes.add(pid);
    return pane_id as string;
  };
  const [claude, codex, gemini] = await Promise.all([
    start("claude", claudePane),
    start("codex", codexPane),
    start("gemini", (dir, url) => geminiPane(dir, url, "NO_COLOR")),
  ]);
  const turn = (pane: string, input: string) => call("run_in_repl", { pane_id: pane, input, timeout_ms: 120_000 });
  const [asked] = await Promise.all([
    turn(claude, `wall: [tool] ${server.dir}/touched`),
    turn(gemini, "wall: a quick one"),
  ]);
  assert.equal(asked.outcome, "input");
  const working = turn(codex, "wall: wait for it [hold]");

  await using browser = await Browser.launch();
  await browser.viewport(1500, 900);
  await browser.navigate(`${server.url}/watch`);
  const shows = (pane: string, badge: string) =>
    `document.querySelector('#tiles article.tile[data-pane="${pane}"] .badge')?.textContent === ${
      JSON.stringify(badge)
    }`;
  await browser.until(
    [
      shows(claude, "asking its person (Claude Code)"),
      shows(codex, "working (Codex CLI)"),
      shows(gemini, "idle, waiting for its user (Gemini CLI)"),
    ].join(" && "),
    60_000,
  );
  const tiles = await browser.evaluate<Tile[]>(TILES);
  const of = (pane: string) => tiles.find((t) => t.pane === pane)!;
  assert.deepEqual([of(claude).state, of(claude).needs], ["waiting", "true"]);
  assert.deepEqual([of(codex).state, of(codex).needs], ["running", "false"]);
  assert.deepEqual([of(gemini).state, of(gemini).needs], ["idle", "false"]);
  assert.equal(tiles[0].pane, claude, "the question is not first on the wall");
  assert.match(
    await browser.evaluate<string>(`document.getElementById("summary").textContent`),
    /3 panes · 1 needs? you/,
  );

  // The person answers, the model lets Codex's turn end: the wall follows.
  await call("send_keys", { pane_id: claude, keys: ["Enter"] });
  model.release();
  assert.equal((await working).output, "You said: wall: wait for it [hold]\nThat is all from the stand-in model.");
  assert.equal((await call("run_in_repl", { pane_id: claude, timeout_ms: 120_000 })).prompt_seen, true);
  await browser.until(
    [
      shows(claude, "idle, waiting for its user (Claude Code)"),
      shows(codex, "idle, waiting for its user (Codex CLI)"),
    ].join(" && "),
    60_000,
  );
  assert.equal((await browser.evaluate<Tile[]>(TILES)).filter((t) => t.needs === "true").length, 0);
  await client.close();
});
