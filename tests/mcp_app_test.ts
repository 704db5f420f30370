import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { Browser } from "./helpers/cdp.ts";

// The MCP App view in a real host: a page built on the official MCP SDK client and the ext-apps
// AppBridge, in headless Chromium, renders the view a tool declares and hands it the tool's result;
// the view shows that pane and follows it through the bridge.

const TOKEN = "apps-test-token";
const HOST = new URL("./fixtures/apps_host.ts", import.meta.url).pathname;

async function bundleHost(): Promise<string> {
  const out = await Deno.makeTempFile({ suffix: ".js" });
  const built = await new Deno.Command("deno", {
    args: ["bundle", "--quiet", "--platform", "browser", "-o", out, HOST],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
  const js = await Deno.readTextFile(out);
  await Deno.remove(out);
  return js;
}

/** The host page on its own origin; /mcp is relayed to tmuxwright with the token, as a host's backend would. */
function hostServer(mcpUrl: URL, hostJs: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/") {
      return new Response('<!doctype html><html><body><script type="module" src="/host.js"></script></body></html>', {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }
    if (path === "/host.js") return new Response(hostJs, { headers: { "content-type": "text/javascript" } });
    if (path !== "/mcp") return new Response("not found", { status: 404 });
    const headers = new Headers({ authorization: `Bearer ${TOKEN}` });
    for (const name of ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    const body = request.method === "POST" ? await request.text() : undefined;
    const answer = await fetch(mcpUrl, { method: request.method, headers, body });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return { url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/`, close: () => server.shutdown() };
}

/** An expression for the text of the view's terminal inside the host's iframe. */
const VIEW = `document.getElementById("view")?.contentDocument`;
const viewText = `(${VIEW}?.querySelector(".xterm-rows")?.textContent ?? "")`;

Deno.test("MCP App: a host renders the pane view for execute_command's result, then the pane's next output", async () => {
  await using server = await HttpMcpServer.start({ token: TOKEN });
  const host = hostServer(server.mcpUrl, await bundleHost());
  try {
    await using browser = await Browser.launch();
    await browser.navigate(host.url);
    await browser.until(`typeof globalThis.runHost === "function"`);
    await browser.evaluate(
      `runHost("/mcp", { tool: "execute_command", arguments: { command: "echo APP-EARLIER" } })
        .then((mime) => document.body.dataset.mime = mime, (e) => document.body.dataset.error = String(e)); 0`,
    );
    const mime = await browser.until<string>(
      `document.body.dataset.error ? "error: " + document.body.dataset.error : document.body.dataset.mime`,
      20_000,
    ).catch(async (error) => `${error.message} at step ${await browser.evaluate("document.body.dataset.step")}`);
    assert.equal(mime, "text/html;profile=mcp-app");
    const pane = await browser.until<string>(`${VIEW}?.body?.dataset.ready === "true" && ${VIEW}.body.dataset.pane`);
    assert.match(pane, /^%\d+$/);
    assert.match(await browser.until<string>(`${viewText}.includes("APP-EARLIER") && ${viewText}`), /APP-EARLIER/);
    // The agent's next call writes to the pane; the view shows it without another tool result.
    await browser.evaluate(
      `hostCall("send_keys", { pane_id: "${pane}", text: "echo APP-NEXT-$((6*7))", enter: true })`,
    );
    await browser.until(`${viewText}.includes("APP-NEXT-42")`, 15_000);
    // The badge: the pane's state as /watch shows it (pane_state's status), following the pane.
    const badge = `(${VIEW}?.getElementById("badge")?.textContent ?? "")`;
    await browser.until(`${badge} === "idle at its prompt (bash)"`, 15_000);
    await browser.evaluate(
      `hostCall("send_keys", { pane_id: "${pane}", text: "read -p 'Continue? ' answer", enter: true })`,
    );
    await browser.until(`${badge} === "waiting for input (bash)"`, 15_000);
    assert.equal(await browser.evaluate(`${VIEW}.getElementById("badge").dataset.needs`), "true");
  } finally {
    await host.close();
  }
});

Deno.test("MCP App: the pane tools declare the view; the view is one self-contained document", async () => {
  await using server = await HttpMcpServer.start();
  const { client } = await server.client();
  const { tools } = await client.listTools();
  const declaring = tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } })?.ui?.resourceUri)
    .map((t) => t.name);
  for (const name of ["execute_command", "start_process", "capture_pane", "snapshot_pane", "watch_pane"]) {
    assert.ok(declaring.includes(name), `${name} declares the view`);
  }
  const uri = (tools.find((t) => t.name === "execute_command")!._meta as { ui: { resourceUri: string } }).ui
    .resourceUri;
  assert.match(uri, /^ui:\/\//);
  const listed = await client.listResources();
  assert.ok(listed.resources.some((r) => r.uri === uri && r.mimeType === "text/html;profile=mcp-app"));
  const read = await client.readResource({ uri });
  const html = (read.contents[0] as { text: string }).text;
  assert.equal(read.contents[0].mimeType, "text/html;profile=mcp-app");
  assert.ok(!/<script[^>]+src=/i.test(html), "no script loaded from anywhere: everything is inline");
  assert.ok(!/<link[^>]+href=/i.test(html), "no stylesheet loaded from anywhere");
  // Without an MCP Apps host the result is what it always was: text and structured content.
  const result = await client.callTool({ name: "execute_command", arguments: { command: "echo same" } });
  assert.equal((result.structuredContent as { output: string }).output, "same");
  await client.close();
});
