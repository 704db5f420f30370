import assert from "node:assert/strict";
import { serveHttp, StubBackend } from "../src/http/mod.ts";

const CHROMIUM = "/usr/bin/chromium";

interface Call {
  path: string;
  method?: string;
  token?: string;
  body?: unknown;
}

/** A page that runs `calls` with fetch, in order, and writes what each returned into the DOM. */
function page(bridge: string, calls: Call[]): string {
  return `<!doctype html><html><body><pre id="out">pending</pre><script>
(async () => {
  const results = [];
  for (const call of ${JSON.stringify(calls)}) {
    try {
      const headers = { "content-type": "application/json" };
      if (call.token) headers.authorization = "Bearer " + call.token;
      const init = { method: call.method ?? "POST", headers };
      if (call.body !== undefined) init.body = JSON.stringify(call.body);
      const response = await fetch(${JSON.stringify(bridge)} + call.path, init);
      results.push({ status: response.status, body: await response.json() });
    } catch (error) {
      results.push({ error: String(error) });
    }
  }
  document.getElementById("out").textContent = JSON.stringify(results);
})();
</script></body></html>`;
}

/** Serves one page on its own loopback port (its own origin). */
function pageServer(html: () => string) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(html(), { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { origin, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** Loads `url` in headless Chromium and returns what the page wrote into #out. */
async function runInChromium(url: string): Promise<unknown> {
  const profile = await Deno.makeTempDir({ prefix: "tw-chromium" });
  try {
    const out = await new Deno.Command(CHROMIUM, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--virtual-time-budget=10000",
        "--dump-dom",
        url,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dom = new TextDecoder().decode(out.stdout);
    const match = /<pre id="out">(.*?)<\/pre>/s.exec(dom);
    assert.ok(
      match,
      `no #out in the page; chromium exit ${out.code}: ${new TextDecoder().decode(out.stderr).slice(-500)}`,
    );
    return JSON.parse(
      match[1].replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&"),
    );
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

const list = { path: "/v1/tmux", body: { action: "list_sessions" } };

Deno.test("Chromium: a page on an allowed origin drives the bridge with fetch, with and without the token", async () => {
  assert.ok(await Deno.stat(CHROMIUM).then(() => true, () => false), `${CHROMIUM} missing: apt-get install chromium`);
  let bridgeUrl = "";
  let calls: Call[] = [];
  await using allowed = pageServer(() => page(bridgeUrl, calls));
  const seen: { method: string; origin: string | null; requested: string | null }[] = [];
  const bridge = await serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    token: "page-token",
    allowedOrigins: [allowed.origin],
    bridge: new StubBackend(),
    onRequest: (r) =>
      seen.push({
        method: r.method,
        origin: r.headers.get("origin"),
        requested: r.headers.get("access-control-request-headers"),
      }),
  });
  try {
    bridgeUrl = bridge.url;
    calls = [
      list,
      { ...list, token: "wrong" },
      { path: "/v1/tmux", token: "page-token", body: { action: "create_session", session: "web" } },
      {
        path: "/v1/tmux",
        token: "page-token",
        body: { action: "send_keys", session: "web", text: "hello", enter: true },
      },
      { path: "/v1/tmux", token: "page-token", body: { action: "capture_pane", session: "web" } },
      { path: "/health", method: "GET", token: "page-token" },
    ];
    const results = await runInChromium(allowed.origin) as { status: number; body: Record<string, unknown> }[];
    assert.deepEqual(results.map((r) => r.status), [401, 401, 200, 200, 200, 200]);
    assert.deepEqual(results[0].body, { ok: false, error: "Unauthorized." });
    assert.equal(results[4].body.output, "hello <Enter>");
    assert.deepEqual(results[5].body, { ok: true, mode: "stub", backend: "stub", sessions: 1 });
    // The browser asked first (content-type and authorization are not "simple"), from the page's origin.
    const preflights = seen.filter((r) => r.method === "OPTIONS");
    assert.ok(preflights.length >= 1, JSON.stringify(seen));
    assert.ok(preflights.every((p) => p.origin === allowed.origin));
    assert.ok(preflights.some((p) => /authorization/.test(p.requested ?? "")));
    assert.equal(seen.filter((r) => r.method === "POST").length, 5);
  } finally {
    await bridge.shutdown();
  }
});

Deno.test("Chromium: without a configured token a page on an allowed origin needs none", async () => {
  let bridgeUrl = "";
  await using allowed = pageServer(() => page(bridgeUrl, [list]));
  const bridge = await serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    allowedOrigins: [allowed.origin],
    bridge: new StubBackend(),
  });
  try {
    bridgeUrl = bridge.url;
    assert.deepEqual(await runInChromium(allowed.origin), [
      { status: 200, body: { ok: true, action: "list_sessions", sessions: [] } },
    ]);
  } finally {
    await bridge.shutdown();
  }
});

Deno.test("Chromium: a page on another origin is refused before anything runs", async () => {
  let bridgeUrl = "";
  const create = { path: "/v1/tmux", token: "t", body: { action: "create_session", session: "evil" } };
  await using other = pageServer(() => page(bridgeUrl, [create, { path: "/health", method: "GET" }]));
  const seen: { method: string; origin: string | null }[] = [];
  const backend = new StubBackend();
  const bridge = await serveHttp({
    hostname: "127.0.0.1",
    port: 0,
    token: "t",
    bridge: backend, // default allowlist: https://localhost:3141 only
    onRequest: (r) => seen.push({ method: r.method, origin: r.headers.get("origin") }),
  });
  try {
    bridgeUrl = bridge.url;
    const results = await runInChromium(other.origin) as { error?: string }[];
    assert.equal(results.length, 2);
    assert.ok(results.every((r) => /Failed to fetch/.test(r.error ?? "")), JSON.stringify(results));
    assert.ok(seen.length > 0 && seen.every((r) => r.origin === other.origin), JSON.stringify(seen));
    assert.deepEqual(await backend.list(), []);
  } finally {
    await bridge.shutdown();
  }
});
