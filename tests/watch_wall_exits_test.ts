import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import { call } from "./helpers/watch_scene.ts";
import { until } from "./helpers/harness.ts";
import type { Client } from "./helpers/sdk_client.ts";

// Panes whose command prints one line and ends at once (a failing test run, a missing program, a
// server that cannot start): what they printed stays on tmux's own screen (what a person who
// attaches sees) and on their tile of the /watch wall in Chromium, above how they ended. tmux's
// "Pane is dead" notice scrolls the screen by a row as it is written: the first line printed
// went into the history and the tile showed the notice alone.

const ENDINGS = [
  { name: "ok", command: "echo TILE-EXIT-0; exit 0", line: "TILE-EXIT-0", status: 0 },
  { name: "failed", command: "echo TILE-EXIT-1; exit 1", line: "TILE-EXIT-1", status: 1 },
  { name: "missing", command: "tw-no-such-program-48", line: "tw-no-such-program-48: command not found", status: 127 },
];

/**
 * tmux's own screen of a pane once it has ended. Under load tmux can miss a child's exit (its
 * notice waits until some other child of the server ends): list_panes makes tmux reap it.
 */
async function deadScreen(server: HttpMcpServer, client: Client, pane: string): Promise<string> {
  const screen = await until(async () => {
    await call(client, "list_panes");
    return await server.tmux("capture-pane", "-p", "-t", pane);
  }, (out) => /Pane is dead/.test(out.stdout));
  return screen.stdout;
}

/** The tile's state, badge and rows as a person sees them. */
const TILE = (pane: string) =>
  `(() => { const t = document.querySelector('#tiles article.tile[data-pane="${pane}"]'); if (!t) return null;
    return { state: t.dataset.state, badge: t.querySelector(".badge").textContent,
      rows: [...t.querySelectorAll(".screen .row")].map((r) => r.textContent.trimEnd()).filter((r) => r !== "") }; })()`;

type Tile = { state: string; badge: string; rows: string[] };

/** Waits until the tile says `exited STATUS` and shows `line` above the "Pane is dead" row; the tile as last seen. */
async function tileOf(browser: Browser, pane: string, line: string, status: number): Promise<Tile> {
  let seen: Tile | null = null;
  try {
    await browser.until(
      `(() => { const t = ${TILE(pane)}; window.__seen = t; if (!t || t.badge !== "exited ${status}") return false;
        const at = t.rows.findIndex((r) => r.includes(${JSON.stringify(line)}));
        const dead = t.rows.findIndex((r) => r.startsWith("Pane is dead"));
        return at >= 0 && dead > at; })()`,
      20_000,
    );
  } finally {
    seen = await browser.evaluate<Tile | null>("window.__seen");
  }
  assert.ok(seen, `no tile for ${pane}`);
  return seen;
}

Deno.test("watch wall: a pane that prints and ends at once keeps its line on tmux's screen and its tile (0, 1, 127)", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client({}, { name: "tester", version: "1" });
  await using browser = await Browser.launch();
  await browser.viewport(1500, 900);
  await browser.navigate(`${server.url}/watch`);
  const panes = [];
  for (const ending of ENDINGS) {
    const created = await call(client, "create_pane", { name: ending.name, command: ending.command });
    panes.push({ ...ending, pane: created.pane_id as string });
  }
  for (const { pane, line, status } of panes) {
    // What a person who attaches sees: tmux's own screen of the dead pane.
    const screen = await deadScreen(server, client, pane);
    const rows = screen.split("\n").map((r) => r.trimEnd()).filter((r) => r !== "");
    assert.ok(rows.findIndex((r) => r.includes(line)) >= 0, `${pane}: tmux's screen lost ${line}: ${screen}`);
    assert.match(rows.at(-1)!, new RegExp(`^Pane is dead \\(status ${status},`));
    // The wall: the same line above the state.
    const tile = await tileOf(browser, pane, line, status);
    assert.equal(tile.state, "exited", JSON.stringify(tile));
  }
  await client.close();
});

Deno.test("watch wall: a dead pane whose screen holds only tmux's notice shows its last logged lines above it", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client({}, { name: "tester", version: "1" });
  // The program clears its screen on the way out: tmux's screen keeps nothing it printed, its log does.
  const command = "printf 'TILE-LAST-1\\nTILE-LAST-2\\n'; printf '\\033[2J\\033[H'; exit 4";
  const { pane_id: pane } = await call(client, "create_pane", { name: "cleared", command });
  const screen = await deadScreen(server, client, pane);
  assert.doesNotMatch(screen, /TILE-LAST/, "tmux's screen was cleared by the program");
  await using browser = await Browser.launch();
  await browser.viewport(1500, 900);
  await browser.navigate(`${server.url}/watch`);
  const tile = await tileOf(browser, pane, "TILE-LAST-2", 4);
  const at = tile.rows.findIndex((r) => r.includes("TILE-LAST-1"));
  assert.ok(at >= 0 && tile.rows[at + 1].includes("TILE-LAST-2"), JSON.stringify(tile));
  await client.close();
});
