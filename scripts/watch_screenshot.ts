/**
 * Draws the README's picture of the /watch wall: the scene of tests/watch_wall_test.ts (three
 * agents over HTTP, four panes each, one waiting for input, one exited 3) in headless Chromium
 * at 1500×900, saved as docs/watch_wall.png.
 * Run: deno run -A scripts/watch_screenshot.ts [OUT.png]
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { Browser } from "../tests/helpers/cdp.ts";
import { buildScene } from "../tests/helpers/watch_scene.ts";

const out = Deno.args[0] ?? new URL("../docs/watch_wall.png", import.meta.url).pathname;
await using server = await HttpMcpServer.start();
const scene = await buildScene(server);
await using browser = await Browser.launch();
await browser.viewport(1500, 900);
await browser.navigate(`${server.url}/watch`);
// Every tile drawn, the question and the exit shown.
await browser.until(
  `document.querySelectorAll("article.tile .row").length > 0 && ${
    JSON.stringify(scene.panes.map((p) => p.last))
  }.every((t) => document.getElementById("tiles").textContent.includes(t))`,
  30_000,
).catch((e) => console.error(e.message));
await browser.until(`document.querySelector('article.tile[data-state="waiting"]')`, 30_000);
const shot = await browser.send("Page.captureScreenshot", { format: "png" }) as { data: string };
await Deno.mkdir(new URL(".", `file://${out}`).pathname, { recursive: true });
await Deno.writeFile(out, Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0)));
console.log(`wrote ${out}`);
for (const client of scene.clients) await client.close();
