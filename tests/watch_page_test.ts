import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import type { Client } from "./helpers/sdk_client.ts";

// /watch in a real headless Chromium: the token becomes a cookie; every pane is a tile showing its
// earlier output and then new output live, with no click; a tile opens full-size as a terminal.

const TOKEN = "watch-test-token";

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, `${name}: ${text}`);
  return JSON.parse(text);
}

/** A tile's screen text, as the page's DOM holds it. */
const tileText = (pane: string) =>
  `(document.querySelector('#tiles article.tile[data-pane="${pane}"] .screen')?.textContent ?? "")`;
const focusText = `(document.querySelector("#focus-term .xterm-rows")?.textContent ?? "")`;
const loaded = `performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname)`;

Deno.test("watch page: a tile shows a pane's earlier output, then new output live; exit shows its code; full-size on click", async () => {
  await using server = await HttpMcpServer.start({ token: TOKEN });
  const { client } = await server.client({ authorization: `Bearer ${TOKEN}` });
  const pane = await ok(client, "create_pane", { name: "web", command: "bash --norc --noprofile" });
  await ok(client, "execute_command", { pane_id: "web", command: "echo EARLIER-OUTPUT" });

  await using browser = await Browser.launch();
  // Every event stream the page opens, to see it closed while the page is hidden.
  await browser.send("Page.addScriptToEvaluateOnNewDocument", {
    source: "globalThis.__streams = []; const Source = EventSource; " +
      "globalThis.EventSource = class extends Source { constructor(...a) { super(...a); __streams.push(this); } };",
  });
  await browser.navigate(`${server.url}/watch?token=${TOKEN}`);
  // The token went into a cookie and out of the address bar.
  assert.equal(
    await browser.until<string>("location.pathname === '/watch' && !location.search && location.href"),
    `${server.url}/watch`,
  );
  await browser.until(`${tileText(pane.pane_id)}.includes("EARLIER-OUTPUT")`);

  // New output arrives live (no reload, no click).
  await ok(client, "send_keys", { pane_id: "web", text: "echo LIVE-$((6*7))", enter: true });
  await browser.until(`${tileText(pane.pane_id)}.includes("LIVE-42")`);

  // A second pane gets a tile of its own; its exit shows with its code, marked as needing a person.
  const other = await ok(client, "create_pane", { name: "job", command: "sh -c 'echo JOB-RAN; sleep 0.5; exit 3'" });
  await browser.until(`${tileText(other.pane_id)}.includes("JOB-RAN")`);
  await browser.until(
    `document.querySelector('article.tile[data-pane="${other.pane_id}"] .badge')?.textContent === "exited 3"`,
  );
  assert.equal(
    await browser.evaluate(`document.querySelector('article.tile[data-pane="${other.pane_id}"]').dataset.needs`),
    "true",
  );

  // The wall needs no terminal emulator; opening a tile loads it and shows the pane full-size, live.
  assert.ok(!(await browser.evaluate<string[]>(loaded)).includes("/watch/xterm.js"));
  await browser.evaluate(`document.querySelector('article.tile[data-pane="${pane.pane_id}"]').click()`);
  await browser.until(`document.getElementById("focus").dataset.ready === "true"`, 20_000);
  assert.ok((await browser.evaluate<string[]>(loaded)).includes("/watch/xterm.js"));
  await browser.until(`${focusText}.includes("EARLIER-OUTPUT")`);
  assert.equal(await browser.evaluate(`location.search`), `?pane=${encodeURIComponent(pane.pane_id)}`);
  await ok(client, "send_keys", { pane_id: "web", text: "echo FOCUSED-$((7*7))", enter: true });
  await browser.until(`${focusText}.includes("FOCUSED-49")`);
  await browser.evaluate(`document.getElementById("focus-close").click()`);
  await browser.until(`document.getElementById("focus").hidden`);

  // A hidden page (another tab) holds no stream; shown again, it opens one and is live again.
  const hide = (hidden: boolean) =>
    browser.evaluate(
      `Object.defineProperty(document, "hidden", { configurable: true, get: () => ${hidden} }); ` +
        `document.dispatchEvent(new Event("visibilitychange")); 0`,
    );
  await hide(true);
  assert.equal(await browser.evaluate(`__streams.every((s) => s.readyState === EventSource.CLOSED)`), true);
  await hide(false);
  assert.equal(await browser.evaluate(`__streams.filter((s) => s.readyState !== EventSource.CLOSED).length`), 1);
  await ok(client, "send_keys", { pane_id: "web", text: "echo SHOWN-$((8*8))", enter: true });
  await browser.until(`${tileText(pane.pane_id)}.includes("SHOWN-64")`);
  await client.close();
});

Deno.test("watch page: the script parses, the wall's files are small, xterm.js is served on demand", async () => {
  await using server = await HttpMcpServer.start();
  const js = await (await fetch(`${server.url}/watch/app.js`)).text();
  new Function(js); // a syntax error in the page's script fails here, not only in a browser
  const css = await (await fetch(`${server.url}/watch/watch.css`)).text();
  const html = await (await fetch(`${server.url}/watch`)).text();
  const wall = js.length + css.length + html.length;
  assert.ok(wall < 48 * 1024, `the wall's files: ${wall} bytes`);
  assert.ok(!html.includes("xterm"), "the wall loads no terminal emulator");
  const xterm = await fetch(`${server.url}/watch/xterm.js`);
  assert.equal(xterm.status, 200);
  assert.ok((await xterm.text()).length > 100_000);
});

Deno.test("watch page: no token is 401, a wrong token is 401, a foreign Origin is 403; never framed, only own scripts", async () => {
  await using server = await HttpMcpServer.start({ token: TOKEN });
  const plain = await fetch(`${server.url}/watch`);
  assert.equal(plain.status, 401);
  await plain.body?.cancel();
  const wrong = await fetch(`${server.url}/watch?token=nope`, { redirect: "manual" });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get("set-cookie"), null);
  await wrong.body?.cancel();
  const right = await fetch(`${server.url}/watch?token=${TOKEN}&pane=%251`, { redirect: "manual" });
  assert.equal(right.status, 303);
  assert.equal(right.headers.get("location"), "/watch?pane=%251");
  const cookie = right.headers.get("set-cookie")!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.ok(!cookie.includes(TOKEN), "the cookie does not carry the token");
  await right.body?.cancel();
  const session = cookie.split(";")[0];
  const page = await fetch(`${server.url}/watch`, { headers: { cookie: session } });
  assert.equal(page.status, 200);
  const csp = page.headers.get("content-security-policy")!;
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.equal(page.headers.get("x-frame-options"), "DENY");
  const html = await page.text();
  for (const src of html.matchAll(/<script[^>]*src="([^"]+)"/g)) assert.match(src[1], /^\/watch\//);
  assert.ok(!/<script(?![^>]*src=)/.test(html), "no inline script");
  // A page of another origin cannot read the streams, even with the cookie.
  const foreign = await fetch(`${server.url}/watch/events`, {
    headers: { cookie: session, origin: "https://evil.example" },
  });
  assert.equal(foreign.status, 403);
  await foreign.body?.cancel();
  // A forged cookie is refused; a bad pane id is a clear 400.
  const forged = await fetch(`${server.url}/watch/events`, { headers: { cookie: "tmuxwright_watch=guess" } });
  assert.equal(forged.status, 401);
  await forged.body?.cancel();
  const bad = await fetch(`${server.url}/watch/events?pane=abc`, { headers: { cookie: session } });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  // Read-only: nothing but GET.
  const post = await fetch(`${server.url}/watch/events`, { method: "POST", headers: { cookie: session } });
  assert.equal(post.status, 405);
  await post.body?.cancel();
});
