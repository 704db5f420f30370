import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";
import { SshLab } from "./helpers/sshd.ts";
import type { Client } from "./helpers/sdk_client.ts";

// /watch over the whole fleet in a real headless Chromium, with the lab's hosts over real OpenSSH:
// a remote pane's output shows live, a person's own pane on a host is followed too, and a host
// that is down shows as unreachable without holding the page or the other host.

const TOKEN = "watch-fleet-token";

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, `${name}: ${text}`);
  return JSON.parse(text);
}

const termText = (pane: string) =>
  `(() => { const p = document.querySelector('article[data-pane="${pane}"] .xterm-rows'); ` +
  `return p ? p.textContent : ""; })()`;
const hostLine = (host: string) => `document.querySelector('li.host[data-host="${host}"]')?.textContent ?? ""`;

async function openPane(browser: Browser, pane: string): Promise<void> {
  await browser.until(`document.querySelector('button[data-pane="${pane}"]')`);
  await browser.evaluate(`document.querySelector('button[data-pane="${pane}"]').click()`);
  await browser.until(`document.querySelector('article[data-pane="${pane}"]')?.dataset.ready === "true"`);
}

Deno.test({
  name: "watch fleet: remote panes grouped by host with link state, output live; a dead host holds nothing",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const lab = await SshLab.start();
    try {
      await using server = await HttpMcpServer.start({
        token: TOKEN,
        env: { TMUXWRIGHT_HOSTS: "alpha=alpha,beta=beta", TMUXWRIGHT_SSH_CONFIG: lab.configFile },
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
      await openPane(browser, pane.pane_id);
      await browser.until(`${termText(pane.pane_id)}.includes("EARLIER-REMOTE")`);

      // The page lists the panes list_panes lists, on every host (beta was dialled by the page alone).
      await browser.until(`${hostLine("beta")}.includes("connected")`);
      const listed = (await ok(client, "list_panes")).panes.map((p: { pane_id: string }) => p.pane_id).toSorted();
      // beta has no panes yet: the link's own session there (its first pane) is nobody's and never listed.
      assert.ok(!listed.some((id: string) => id.startsWith("beta:")), JSON.stringify(listed));
      assert.deepEqual(
        await browser.until<string[]>(
          `(() => { const ids = [...document.querySelectorAll('button[data-pane]')].map((b) => b.dataset.pane).sort(); ` +
            `return ids.length === ${listed.length} && ids; })()`,
        ),
        listed,
      );

      // Output typed by an agent comes live through the link's %output.
      await ok(client, "send_keys", { pane_id: pane.pane_id, text: "echo REMOTE-LIVE-$((6*7))", enter: true });
      await browser.until(`${termText(pane.pane_id)}.includes("REMOTE-LIVE-42")`);

      // The person's pane is listed under alpha and followed (its screen, read through the link).
      await openPane(browser, `alpha:${mine}`);
      // xterm draws only a terminal in view: the first pane (200 columns) pushes this one out of it.
      await browser.evaluate(`document.querySelector('article[data-pane="alpha:${mine}"]').scrollIntoView()`);
      await lab.remoteTmux("alpha", "send-keys", "-t", mine, "echo PERSON-$((7*6))", "Enter");
      await browser.until(`${termText(`alpha:${mine}`)}.includes("PERSON-42")`);

      // beta goes down while connected: the page says so, and alpha still streams at once.
      await ok(client, "create_pane", { host: "beta", name: "other" });
      await browser.until(`${hostLine("beta")}.includes("connected")`);
      lab.relay("beta").cut();
      lab.relay("beta").blackhole();
      await browser.until(`/beta: (reconnecting|unreachable) since/.test(${hostLine("beta")})`, 30_000);
      const started = performance.now();
      await ok(client, "send_keys", { pane_id: pane.pane_id, text: "echo STILL-HERE-$((5*5))", enter: true });
      await browser.until(`${termText(pane.pane_id)}.includes("STILL-HERE-25")`);
      assert.ok(performance.now() - started < 5000, "alpha is not held by beta");
      // A fresh page loads at once with beta down, listing alpha's panes.
      const fresh = performance.now();
      await browser.navigate(`${server.url}/watch`);
      await browser.until(`document.querySelector('button[data-pane="${pane.pane_id}"]')`);
      assert.ok(performance.now() - fresh < 5000, `the page waited ${performance.now() - fresh} ms`);
      await client.close();
    } finally {
      await lab.close();
    }
  },
});
