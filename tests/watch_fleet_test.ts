import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labEnv } from "./helpers/lab_server.ts";
import type { Client } from "./helpers/sdk_client.ts";

// /watch over the whole fleet in a real headless Chromium, with the lab's hosts over real OpenSSH:
// a remote pane's output shows live on its tile and full-size, a person's own pane on a host is
// followed too, and a host that is down shows as unreachable without holding the page or the other host.

const TOKEN = "watch-fleet-token";

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, `${name}: ${text}`);
  return JSON.parse(text);
}

/** A tile's screen text on the wall. */
const tileText = (pane: string) =>
  `(document.querySelector('#tiles article.tile[data-pane="${pane}"] .screen')?.textContent ?? "")`;
const hostLine = (host: string) =>
  `([...document.querySelectorAll("#hosts .host")].find((h) => h.textContent.startsWith("${host}:"))?.textContent ?? "")`;
const focusText = `(document.querySelector("#focus-term .xterm-rows")?.textContent ?? "")`;

Deno.test({
  name:
    "watch fleet: remote panes on the wall with their host, state and link state, output live; a dead host holds nothing",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    await using server = await HttpMcpServer.start({
      token: TOKEN,
      env: labEnv(lab, ["alpha", "beta"]),
    });
    const { client } = await server.client({ authorization: `Bearer ${TOKEN}` });
    const pane = await ok(client, "create_pane", { host: "alpha", name: "far", command: "bash --norc --noprofile" });
    assert.match(pane.pane_id, /^alpha:%\d+$/);
    await ok(client, "execute_command", { pane_id: pane.pane_id, command: "echo EARLIER-REMOTE" });
    // A person's own session on alpha: not made by tmuxwright, outside the link's hub.
    await lab.remoteTmux("alpha", "new-session", "-d", "-s", "mine", "-x", "80", "-y", "10", "sh");
    const mine = (await lab.remoteTmux("alpha", "list-panes", "-t", "=mine", "-F", "#{pane_id}")).stdout.trim();

    await using browser = await Browser.launch();
    await browser.navigate(`${server.url}/watch?token=${TOKEN}`);
    await browser.until(`${hostLine("alpha")}.includes("connected")`);
    await browser.until(`${tileText(pane.pane_id)}.includes("EARLIER-REMOTE")`);
    // Its state is read on its host (the same process facts as there), its host named on its tile.
    const tile = `document.querySelector('#tiles article.tile[data-pane="${pane.pane_id}"]')`;
    await browser.until(`${tile}.querySelector(".badge").textContent === "idle at its prompt (bash)"`);
    assert.match(await browser.evaluate<string>(`${tile}.querySelector(".where").textContent`), /^alpha · far /);

    // The page lists the panes list_panes lists, on every host (beta was dialled by the page alone).
    await browser.until(`${hostLine("beta")}.includes("connected")`);
    const listed = (await ok(client, "list_panes")).panes.map((p: { pane_id: string }) => p.pane_id).toSorted();
    // beta has no panes yet: the link's own session there (its first pane) is nobody's and never listed.
    assert.ok(!listed.some((id: string) => id.startsWith("beta:")), JSON.stringify(listed));
    assert.deepEqual(
      await browser.until<string[]>(
        `(() => { const ids = [...document.querySelectorAll("#tiles article.tile")].map((t) => t.dataset.pane).sort(); ` +
          `return ids.length === ${listed.length} && ids; })()`,
      ),
      listed,
    );

    // Output typed by an agent comes live through the link's %output, on the wall and full-size.
    await ok(client, "send_keys", { pane_id: pane.pane_id, text: "echo REMOTE-LIVE-$((6*7))", enter: true });
    await browser.until(`${tileText(pane.pane_id)}.includes("REMOTE-LIVE-42")`);
    await browser.evaluate(`document.querySelector('article.tile[data-pane="${pane.pane_id}"]').click()`);
    await browser.until(`${focusText}.includes("REMOTE-LIVE-42")`, 20_000);
    await ok(client, "send_keys", { pane_id: pane.pane_id, text: "echo REMOTE-FOCUSED-$((6*6))", enter: true });
    await browser.until(`${focusText}.includes("REMOTE-FOCUSED-36")`);
    await browser.evaluate(`document.getElementById("focus-close").click()`);

    // The person's pane is on the wall under alpha and followed (its screen, read through the link).
    await lab.remoteTmux("alpha", "send-keys", "-t", mine, "echo PERSON-$((7*6))", "Enter");
    await browser.until(`${tileText(`alpha:${mine}`)}.includes("PERSON-42")`);

    // beta goes down while connected: the page says so, and alpha still streams at once.
    await ok(client, "create_pane", { host: "beta", name: "other" });
    await browser.until(`${hostLine("beta")}.includes("connected")`);
    lab.relay("beta").cut();
    lab.relay("beta").blackhole();
    await browser.until(`/beta: (reconnecting|unreachable) since/.test(${hostLine("beta")})`, 30_000);
    const started = performance.now();
    await ok(client, "send_keys", { pane_id: pane.pane_id, text: "echo STILL-HERE-$((5*5))", enter: true });
    await browser.until(`${tileText(pane.pane_id)}.includes("STILL-HERE-25")`);
    assert.ok(performance.now() - started < 5000, "alpha is not held by beta");
    // A fresh page loads at once with beta down, listing alpha's panes.
    const fresh = performance.now();
    await browser.navigate(`${server.url}/watch`);
    await browser.until(`document.querySelector('#tiles article.tile[data-pane="${pane.pane_id}"]')`);
    assert.ok(performance.now() - fresh < 5000, `the page waited ${performance.now() - fresh} ms`);
    await client.close();
  },
});
