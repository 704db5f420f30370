import assert from "node:assert/strict";
import { ALLOWED, rawHttp, startHttp } from "./helpers/http.ts";
import { until } from "./helpers/harness.ts";
import { serveHttp, StubBackend } from "../src/http/mod.ts";
import { admit } from "../src/http/guards.ts";
import { resolveOptions } from "../src/http/options.ts";

const get = (port: number, host: string, extra = "") =>
  rawHttp(port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);

Deno.test("guards: a bearer token is required on /v1/tmux when set, compared exactly", async () => {
  await using s = await startHttp({ token: "s3cret-token" });
  const list = { action: "list_sessions" };
  const none = await s.bridge(list);
  assert.deepEqual([none.status, none.body], [401, { ok: false, error: "Unauthorized." }]);
  assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
  for (const authorization of ["Bearer s3cret-toke", "Bearer s3cret-token2", "s3cret-token", "Basic s3cret-token"]) {
    assert.equal((await s.bridge(list, { authorization })).status, 401, authorization);
  }
  assert.equal((await s.bridge(list, { authorization: "Bearer s3cret-token" })).status, 200);
  assert.equal((await s.bridge(list, { authorization: "bearer s3cret-token" })).status, 200);
});

Deno.test("guards: /health answers without the token but tells details only with it", async () => {
  await using s = await startHttp({ token: "t0ken" });
  const anonymous = await fetch(`${s.url}/health`);
  assert.deepEqual(await anonymous.json(), { ok: true, mode: "stub", backend: "stub" });
  const full = await fetch(`${s.url}/health`, { headers: { authorization: "Bearer t0ken" } });
  assert.deepEqual(await full.json(), { ok: true, mode: "stub", backend: "stub", sessions: 0 });
});

Deno.test("guards: a disallowed Origin gets 403 forbidden; an allowed one gets CORS headers; none is fine", async () => {
  await using s = await startHttp();
  const evil = await s.bridge({ action: "list_sessions" }, { origin: "https://evil.example" });
  assert.deepEqual([evil.status, evil.body], [403, "forbidden"]);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
  const nullOrigin = await s.bridge({ action: "list_sessions" }, { origin: "null" });
  assert.equal(nullOrigin.status, 403);
  const good = await s.bridge({ action: "list_sessions" }, { origin: ALLOWED });
  assert.equal(good.status, 200);
  assert.equal(good.headers.get("access-control-allow-origin"), ALLOWED);
  assert.equal(good.headers.get("vary"), "Origin");
  assert.match(good.headers.get("access-control-expose-headers") ?? "", /mcp-session-id/);
  const own = await s.bridge({ action: "list_sessions" }, { origin: `http://127.0.0.1:${s.port}` });
  assert.equal(own.status, 200); // the listener's own loopback origin: a page we would have served
  for (
    const other of [`http://127.0.0.1:${s.port + 1}`, `https://127.0.0.1:${s.port}`, `http://evil.example:${s.port}`]
  ) {
    assert.equal((await s.bridge({ action: "list_sessions" }, { origin: other })).status, 403, other);
  }
  const plain = await s.bridge({ action: "list_sessions" });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
});

Deno.test("guards: errors to an allowed origin carry CORS headers so the page can read them", async () => {
  await using s = await startHttp({ token: "t" });
  const response = await s.bridge({ action: "list_sessions" }, { origin: ALLOWED });
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("access-control-allow-origin"), ALLOWED);
});

Deno.test("guards: ALLOWED_ORIGINS replaces the default list", async () => {
  await using s = await startHttp({ allowedOrigins: ["https://addin.example:8443", "http://127.0.0.1:5173/"] });
  assert.equal((await s.bridge({ action: "list_sessions" }, { origin: ALLOWED })).status, 403);
  assert.equal((await s.bridge({ action: "list_sessions" }, { origin: "https://addin.example:8443" })).status, 200);
  assert.equal((await s.bridge({ action: "list_sessions" }, { origin: "http://127.0.0.1:5173" })).status, 200);
});

Deno.test("guards: Host must be a loopback name with our port (DNS rebinding)", async () => {
  await using s = await startHttp();
  for (
    const host of [
      `127.0.0.1:${s.port}`,
      `localhost:${s.port}`,
      `LOCALHOST:${s.port}`,
      `[::1]:${s.port}`,
      `127.0.0.2:${s.port}`,
    ]
  ) {
    assert.equal((await get(s.port, host)).status, 200, host);
  }
  for (
    const host of [
      `evil.example:${s.port}`,
      "evil.example",
      `localhost:${s.port + 1}`,
      "localhost",
      `localhost.:${s.port}`,
      `10.0.0.1:${s.port}`,
    ]
  ) {
    const response = await get(s.port, host);
    assert.deepEqual([response.status, response.body], [403, "forbidden"], host);
  }
});

Deno.test("guards: only loopback peers unless remote clients are allowed", () => {
  const options = resolveOptions({ hostname: "127.0.0.1", port: 1 });
  const request = new Request("http://127.0.0.1:1/health", { headers: { host: "127.0.0.1:1" } });
  const at = (address: string) => ({ address, listenPort: 1, defaultPort: 80 });
  assert.deepEqual(admit(request, at("127.0.0.1"), options), { ok: true, origin: null });
  assert.deepEqual(admit(request, at("::1"), options), { ok: true, origin: null });
  assert.deepEqual(admit(request, at("::ffff:127.0.0.1"), options), { ok: true, origin: null });
  assert.deepEqual(admit(request, at("192.0.2.7"), options), { ok: false, status: 403 });
  assert.deepEqual(admit(request, at("::ffff:192.0.2.7"), options), { ok: false, status: 403 });
  const remote = resolveOptions({ hostname: "0.0.0.0", port: 1, allowRemote: true, token: "t" });
  const remoteHost = new Request("http://203.0.113.9:1/health", { headers: { host: "tmux.example:1" } });
  assert.deepEqual(admit(remoteHost, at("192.0.2.7"), remote), { ok: true, origin: null });
});

Deno.test("guards: a non-loopback bind needs --allow-remote, and that needs a token", async () => {
  await assert.rejects(
    () => serveHttp({ hostname: "0.0.0.0", port: 0, bridge: new StubBackend() }),
    /Cannot listen on "0\.0\.0\.0": only loopback addresses/,
  );
  await assert.rejects(
    () => serveHttp({ hostname: "0.0.0.0", port: 0, allowRemote: true, bridge: new StubBackend() }),
    /Cannot allow remote clients without a token: set TMUX_BRIDGE_TOKEN/,
  );
  await assert.rejects(
    () => serveHttp({ hostname: "127.0.0.1", port: 0, allowedOrigins: ["localhost:3000"] }),
    /Invalid allowed origin "localhost:3000"/,
  );
});

Deno.test("CORS: preflight from an allowed origin is 204 with methods, headers, max-age and PNA on request", async () => {
  await using s = await startHttp({ token: "t" });
  const ask = (extra: Record<string, string>, path = "/v1/tmux") =>
    fetch(`${s.url}${path}`, {
      method: "OPTIONS",
      headers: {
        origin: ALLOWED,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
        ...extra,
      },
    });
  const response = await ask({ "access-control-request-private-network": "true" });
  assert.equal(response.status, 204);
  assert.equal(response.headers.get("access-control-allow-origin"), ALLOWED);
  assert.equal(response.headers.get("vary"), "Origin");
  assert.match(response.headers.get("access-control-allow-methods") ?? "", /POST/);
  assert.equal(
    response.headers.get("access-control-allow-headers"),
    "content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id",
  );
  assert.ok(Number(response.headers.get("access-control-max-age")) > 0);
  assert.match(response.headers.get("access-control-expose-headers") ?? "", /mcp-session-id/);
  assert.equal(response.headers.get("access-control-allow-private-network"), "true");
  const noPna = await ask({});
  assert.equal(noPna.status, 204);
  assert.equal(noPna.headers.get("access-control-allow-private-network"), null);
  const evil = await ask({ origin: "https://evil.example" });
  assert.equal(evil.status, 403);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
  await evil.body?.cancel();
  const unknown = await ask({}, "/nowhere");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("limits: oversized headers get 431", async () => {
  await using s = await startHttp();
  const response = await s.bridge({ action: "list_sessions" }, { "x-pad": "x".repeat(20_000) });
  assert.equal(response.status, 431);
});

Deno.test("limits: a request body that stalls times out with 408", async () => {
  await using s = await startHttp({ limits: { bodyIdleMs: 200 } });
  const started = performance.now();
  const response = await rawHttp(
    s.port,
    `POST /v1/tmux HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"action":`,
  );
  assert.deepEqual([response.status, JSON.parse(response.body)], [408, {
    ok: false,
    error: "Request body timed out.",
  }]);
  assert.ok(performance.now() - started < 5000);
});

Deno.test("limits: requests beyond the concurrency cap get 503 until one finishes", async () => {
  await using s = await startHttp({ limits: { maxConcurrent: 2 } });
  await s.bridge({ action: "create_session", session: "w" });
  const wait = { action: "send_and_capture", session: "w", text: "x", wait_for: "never", timeout_ms: 1500 };
  const waits = [s.bridge(wait), s.bridge(wait)];
  const refused = await until(() => s.bridge({ action: "list_sessions" }), (r) => r.status === 503);
  assert.deepEqual(refused.body, { ok: false, error: "Too many concurrent requests (max 2)." });
  assert.equal(refused.headers.get("retry-after"), "1");
  // When the waits time out (408) their slots free up.
  assert.deepEqual((await Promise.all(waits)).map((r) => r.status), [408, 408]);
  assert.equal((await s.bridge({ action: "list_sessions" })).status, 200);
});

Deno.test("shutdown ends pending waits at once instead of holding the listener", async () => {
  const s = await startHttp({ limits: { maxConcurrent: 1 } });
  await s.bridge({ action: "create_session", session: "w" });
  const pending = s.bridge({
    action: "send_and_capture",
    session: "w",
    text: "x",
    wait_for: "never",
    timeout_ms: 60_000,
  });
  await until(() => s.bridge({ action: "list_sessions" }), (r) => r.status === 503); // the wait holds the one slot
  const started = performance.now();
  await s.shutdown();
  const response = await pending;
  assert.equal(response.status, 503);
  assert.ok(performance.now() - started < 2000);
});
