import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import { buildScene, call } from "./helpers/watch_scene.ts";

// The wall in a real headless Chromium at 1500×900, looked at as a person looks: twelve panes of
// three agents (builder, tester, reviewer over HTTP), one waiting on `read -p 'Continue? '`, one
// exited with status 3. Every tile's latest line is inside the window, and what a tile shows is
// text in the page.

const TOKEN = "wall-test-token";
const KEYS: Record<string, number> = {
  ArrowRight: 39,
  ArrowLeft: 37,
  ArrowDown: 40,
  ArrowUp: 38,
  Enter: 13,
  Escape: 27,
};

async function press(browser: Browser, key: string): Promise<void> {
  const common = { key, code: key, windowsVirtualKeyCode: KEYS[key], nativeVirtualKeyCode: KEYS[key] };
  await browser.send("Input.dispatchKeyEvent", {
    type: "keyDown",
    ...common,
    ...(key === "Enter" ? { text: "\r" } : {}),
  });
  await browser.send("Input.dispatchKeyEvent", { type: "keyUp", ...common });
}

type Tile = {
  pane: string;
  agent: string;
  badge: string;
  state: string;
  text: string;
  font: number;
  /** The tile and its last row, in CSS pixels of the window. */
  tile: { top: number; left: number; bottom: number; right: number };
  last: { top: number; left: number; bottom: number; right: number; text: string };
};

const TILES = `[...document.querySelectorAll("#tiles article.tile")].map((t) => {
  const box = (r) => ({ top: r.top, left: r.left, bottom: r.bottom, right: r.right });
  const rows = t.querySelectorAll(".screen .row");
  const last = rows[rows.length - 1];
  return { pane: t.dataset.pane, agent: t.querySelector(".agent").textContent, badge: t.querySelector(".badge").textContent,
    state: t.dataset.state, text: t.querySelector(".screen").textContent,
    font: parseFloat(t.querySelector(".screen").style.fontSize),
    tile: box(t.getBoundingClientRect()), last: last ? { ...box(last.getBoundingClientRect()), text: last.textContent } : null };
})`;

Deno.test("watch wall: 12 panes of three agents fit 1500×900; names, waiting and exited shown; keyboard focus and back", async () => {
  await using server = await HttpMcpServer.start({ token: TOKEN });
  const scene = await buildScene(server, { authorization: `Bearer ${TOKEN}` });
  await using browser = await Browser.launch();
  await browser.viewport(1500, 900);
  await browser.navigate(`${server.url}/watch?token=${TOKEN}`);

  // With no click: every pane a tile showing its latest lines, the question and the exit marked.
  const lasts = JSON.stringify(scene.panes.map((p) => [p.pane_id, p.last]));
  await browser.until(
    `${lasts}.every(([id, last]) => document.querySelector('#tiles article.tile[data-pane="' + id + '"] .screen')` +
      `?.textContent.includes(last)) && document.querySelector('article.tile[data-state="waiting"]') && ` +
      `![...document.querySelectorAll("#tiles .badge")].some((b) => b.textContent.startsWith("checking"))`,
    30_000,
  );
  const tiles = await browser.evaluate<Tile[]>(TILES);
  assert.equal(tiles.length, 12);
  const page = await browser.evaluate<{ w: number; h: number; sw: number; sh: number }>(
    `({ w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight })`,
  );
  assert.deepEqual([page.w, page.h], [1500, 900]);
  assert.ok(page.sw <= page.w && page.sh <= page.h, `the page scrolls: ${JSON.stringify(page)}`);
  for (const tile of tiles) {
    const scenePane = scene.panes.find((p) => p.pane_id === tile.pane)!;
    const where = `${tile.pane} (${scenePane.agent} ${scenePane.name})`;
    assert.equal(tile.agent, scenePane.agent, where);
    assert.ok(tile.tile.top >= 0 && tile.tile.left >= 0 && tile.tile.bottom <= 900 && tile.tile.right <= 1500, where);
    // The latest line: inside its tile and the window, at a readable size.
    assert.ok(tile.last, `${where}: no rows drawn`);
    assert.ok(
      tile.last.top >= tile.tile.top && tile.last.bottom <= tile.tile.bottom,
      `${where}: ${JSON.stringify(tile)}`,
    );
    assert.ok(tile.last.left >= tile.tile.left && tile.last.right <= tile.tile.right + 0.5, where);
    assert.ok(tile.font >= 8, `${where}: font ${tile.font}px`);
  }
  // What a tile shows is the pane's screen: its last row is the last line tmux has on that screen.
  for (const tile of tiles) {
    const screen = (await server.tmux("capture-pane", "-p", "-t", tile.pane)).stdout.trimEnd().split("\n");
    assert.equal(tile.last.text.trimEnd(), screen.at(-1)!.trimEnd(), tile.pane);
  }

  // What needs a person is marked and first: the question, then the failure.
  const waiting = tiles.find((t) => t.pane === scene.waiting.pane_id)!;
  const exited = tiles.find((t) => t.pane === scene.exited.pane_id)!;
  assert.equal(waiting.state, "waiting");
  assert.match(waiting.badge, /^waiting for input \(bash\)/);
  assert.equal(exited.state, "exited");
  assert.equal(exited.badge, "exited 3");
  assert.deepEqual(new Set(tiles.slice(0, 2).map((t) => t.pane)), new Set([waiting.pane, exited.pane]));
  assert.ok(tiles.slice(2).every((t) => t.state === "idle"), JSON.stringify(tiles.map((t) => t.badge)));
  assert.match(
    await browser.evaluate<string>(`document.getElementById("summary").textContent`),
    /12 panes · 2 need you/,
  );

  // Keyboard: arrows move between tiles, Enter opens one full-size (its live terminal), Esc returns.
  await press(browser, "ArrowRight");
  await press(browser, "ArrowRight");
  const second = tiles[1].pane;
  assert.equal(await browser.evaluate(`document.activeElement.dataset.pane`), second);
  await press(browser, "Enter");
  const focused = scene.panes.find((p) => p.pane_id === second)!;
  await browser.until(`document.getElementById("focus").dataset.ready === "true"`, 20_000);
  assert.equal(await browser.evaluate(`document.getElementById("focus").hidden`), false);
  assert.equal(await browser.evaluate(`document.getElementById("focus").dataset.pane`), second);
  await browser.until(
    `document.querySelector("#focus-term .xterm-rows")?.textContent.includes(${JSON.stringify(focused.last)})`,
  );
  assert.match(await browser.evaluate<string>(`document.getElementById("focus-title").textContent`), /tester/);
  await press(browser, "Escape");
  await browser.until(`document.getElementById("focus").hidden === true`);
  assert.equal(await browser.evaluate(`document.activeElement.dataset.pane`), second);
  assert.equal(await browser.evaluate(`location.search`), "");

  // Filters: one agent, then what needs a person.
  const choose = (id: string, value: string) =>
    browser.evaluate(
      `(() => { const s = document.getElementById("${id}"); s.value = "${value}"; ` +
        `s.dispatchEvent(new Event("change")); return s.value; })()`,
    );
  assert.equal(await choose("f-agent", "reviewer"), "reviewer");
  assert.deepEqual(
    await browser.evaluate<string[]>(`[...document.querySelectorAll("#tiles .tile .agent")].map((a) => a.textContent)`),
    ["reviewer", "reviewer", "reviewer", "reviewer"],
  );
  await choose("f-agent", "");
  await choose("f-state", "person");
  assert.deepEqual(
    new Set(
      await browser.evaluate<string[]>(`[...document.querySelectorAll("#tiles .tile")].map((t) => t.dataset.pane)`),
    ),
    new Set([waiting.pane, exited.pane]),
  );
  assert.equal(await browser.evaluate(`location.search`), "?state=person");
  for (const client of scene.clients) await client.close();
});

Deno.test("watch wall: past 16 panes the least recently active fold into a list, newest first; no scrolling", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client({}, { name: "many", version: "1" });
  const panes: string[] = [];
  for (let i = 0; i < 18; i++) {
    const pane = await call(client, "create_pane", { name: `p${i}`, command: "bash --norc --noprofile" });
    panes.push(pane.pane_id);
  }
  await using browser = await Browser.launch();
  await browser.viewport(1500, 900);
  await browser.navigate(`${server.url}/watch`);
  await browser.until(`document.querySelectorAll("#tiles article.tile").length === 16`, 30_000);
  // Each pane writes in turn, the first one first: the two that wrote longest ago fold, the later of them on top.
  for (const [i, pane] of panes.entries()) {
    await call(client, "send_keys", { pane_id: pane, text: `echo TURN-${i}` });
    await new Promise((r) => setTimeout(r, 400)); // the wall looks four times a second: distinct times
  }
  const folded = `[...document.querySelectorAll("#folded button")].map((b) => b.dataset.pane)`;
  const tiled = `[...document.querySelectorAll("#tiles article.tile")].map((t) => t.dataset.pane)`;
  assert.deepEqual(
    await browser.until<string[]>(
      `(() => { const f = ${folded}; return f.join() === "${panes[1]},${panes[0]}" && f; })()`,
      20_000,
    ),
    [panes[1], panes[0]],
  );
  assert.deepEqual(new Set(await browser.evaluate<string[]>(tiled)), new Set(panes.slice(2)));
  assert.match(await browser.evaluate<string>(`document.querySelector("#folded h2").textContent`), /^2 quieter panes/);
  const page = await browser.evaluate<{ sw: number; sh: number }>(
    `({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight })`,
  );
  assert.ok(page.sw <= 1500 && page.sh <= 900, JSON.stringify(page));
  // A folded pane that writes becomes a tile again; the list names what it says.
  await call(client, "send_keys", { pane_id: panes[0], text: "echo WOKE-UP" });
  await browser.until(
    `document.querySelector('#tiles article.tile[data-pane="${panes[0]}"] .screen')?.textContent.includes("WOKE-UP")`,
    20_000,
  );
  assert.match(
    await browser.until<string>(
      `(() => { const b = document.querySelector("#folded button"); return b && b.textContent; })()`,
    ),
    /^many · local · p\d+ %\d+ · idle at its prompt \(bash\) · \d+ s ago$/,
  );
  await client.close();
});
