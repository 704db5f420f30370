import assert from "node:assert/strict";
import { BridgeEnvError, parseBridgeEnv } from "../src/http/bridge_env.ts";
import { bridgeBanner } from "../src/http/bridge_banner.ts";
import { ensurePrivateDir } from "../src/http/private_dir.ts";

const DEFAULTS = { stateDir: "/home/u/.local/state/tmuxwright", tmpDir: "/tmp", user: "u", cwd: "/work" };
const parse = (env: Record<string, string> = {}, argv: string[] = []) => parseBridgeEnv(argv, env, DEFAULTS);

Deno.test("bridge env: the old bridge's defaults", () => {
  assert.deepEqual(parse(), {
    hostname: "127.0.0.1",
    port: 3341,
    tls: null,
    mode: "tmux",
    token: null,
    allowedOrigins: ["https://localhost:3141"],
    socketPath: "/tmp/tmuxwright-bridge-u/tmux.sock",
    defaultSocket: true,
    commandTimeoutMs: 10_000,
    allowRemote: false,
    warnings: [],
  });
});

Deno.test("bridge env: every variable of the old bridge is honoured", () => {
  const settings = parse({
    HOST: "::1",
    PORT: "4000",
    TMUX_BRIDGE_MODE: " Stub ",
    TMUX_BRIDGE_TOKEN: " tok ",
    ALLOWED_ORIGINS: "https://a.example, http://localhost:3000/ ,,https://a.example",
    TMUX_BRIDGE_SOCKET_PATH: "sock/t.sock",
    TMUX_BRIDGE_COMMAND_TIMEOUT_MS: "2500",
  });
  assert.equal(settings.hostname, "::1");
  assert.equal(settings.port, 4000);
  assert.equal(settings.mode, "stub");
  assert.equal(settings.token, "tok");
  assert.deepEqual(settings.allowedOrigins, ["https://a.example", "http://localhost:3000"]);
  assert.equal(settings.socketPath, "/work/sock/t.sock");
  assert.equal(settings.defaultSocket, false);
  assert.equal(settings.commandTimeoutMs, 2500);
  assert.equal(parse({ TMUX_BRIDGE_SOCKET_DIR: "/run/b" }).socketPath, "/run/b/tmux.sock");
  assert.equal(parse({ TMUX_BRIDGE_TOKEN: "  " }).token, null);
});

Deno.test("bridge env: HTTPS=1 or --https turn TLS on with localhost and the state directory's files", () => {
  for (const settings of [parse({ HTTPS: "1" }), parse({ HTTPS: "true" }), parse({}, ["--https"])]) {
    assert.equal(settings.hostname, "localhost");
    assert.deepEqual(settings.tls, {
      certFile: "/home/u/.local/state/tmuxwright/tls/cert.pem",
      keyFile: "/home/u/.local/state/tmuxwright/tls/key.pem",
    });
  }
  assert.deepEqual(parse({}, ["--tls-cert", "c.pem", "--tls-key=/k.pem"]).tls, {
    certFile: "/work/c.pem",
    keyFile: "/k.pem",
  });
  assert.deepEqual(parse({ TMUXWRIGHT_TLS_CERT: "/c", TMUXWRIGHT_TLS_KEY: "/k" }).tls, {
    certFile: "/c",
    keyFile: "/k",
  });
  assert.equal(parse({ HTTPS: "1" }, ["--http"]).tls, null);
  assert.equal(parse({ HTTPS: "0" }).tls, null);
});

Deno.test("bridge env: operator mistakes are one clear error", () => {
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ PORT: "80x" }, [], /^Invalid PORT "80x": an integer from 0 to 65535$/],
    [{ PORT: "70000" }, [], /^Invalid PORT "70000"/],
    [{ TMUX_BRIDGE_MODE: "real" }, [], /^Invalid TMUX_BRIDGE_MODE "real": use "tmux" or "stub"$/],
    [{}, ["--https", "--http"], /^Choose one of --https and --http$/],
    [{}, ["--tls-cert", "/c"], /^Give both --tls-cert and --tls-key/],
    [{}, ["--http", "--tls-cert", "/c", "--tls-key", "/k"], /need HTTPS/],
    [{}, ["--bogus"], /bogus.*tmuxwright --help/],
    [{ TMUX_BRIDGE_SOCKET_PATH: `/tmp/${"x".repeat(120)}` }, [], /longer than 100 bytes/],
  ];
  for (const [env, argv, message] of cases) {
    assert.throws(() => parse(env, argv), (e: Error) => e instanceof BridgeEnvError && message.test(e.message));
  }
});

Deno.test("bridge env: values the old bridge tolerated still start, with a warning", () => {
  const low = parse({ TMUX_BRIDGE_COMMAND_TIMEOUT_MS: "200" });
  assert.equal(low.commandTimeoutMs, 10_000);
  assert.match(low.warnings[0], /TMUX_BRIDGE_COMMAND_TIMEOUT_MS "200"/);
  assert.equal(parse({ TMUX_BRIDGE_COMMAND_TIMEOUT_MS: "999999" }).commandTimeoutMs, 120_000);
  const origins = parse({ ALLOWED_ORIGINS: "not an origin" });
  assert.deepEqual(origins.allowedOrigins, ["https://localhost:3141"]);
  assert.match(origins.warnings[0], /ignoring ALLOWED_ORIGINS entry "not an origin"/);
});

Deno.test("bridge banner: the old first line, then mode, URLs, origins and the token warning", () => {
  assert.deepEqual(bridgeBanner(parse({ TMUX_BRIDGE_MODE: "stub", PORT: "0" }), 40123), [
    "tmux bridge listening on http://127.0.0.1:40123",
    "mode: stub",
    "health: http://127.0.0.1:40123/health",
    "endpoint: http://127.0.0.1:40123/v1/tmux",
    "allowed origins: https://localhost:3141",
    "stub mode: input is simulated in memory and nothing runs; TMUX_BRIDGE_MODE=tmux for real terminals",
    "warning: TMUX_BRIDGE_TOKEN is not set; any local process and any page on an allowed origin can drive tmux",
  ]);
  const tls = bridgeBanner(parse({ HTTPS: "1", TMUX_BRIDGE_TOKEN: "t", HOST: "::1" }), 3341);
  assert.equal(tls[0], "tmux bridge listening on https://[::1]:3341");
  assert.ok(
    tls.includes(
      "tmux socket: /tmp/tmuxwright-bridge-u/tmux.sock (watch with: tmux -S /tmp/tmuxwright-bridge-u/tmux.sock attach)",
    ),
  );
  assert.ok(tls.includes("auth: bearer token required for POST /v1/tmux"));
  assert.ok(!tls.some((line) => line.startsWith("warning:")));
});

Deno.test("private socket directory: created 0700, loosened ones tightened, symlinks refused", async () => {
  const base = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    await ensurePrivateDir(`${base}/a/b`);
    assert.equal((await Deno.stat(`${base}/a/b`)).mode! & 0o777, 0o700);
    await Deno.mkdir(`${base}/open`, { mode: 0o777 });
    await Deno.chmod(`${base}/open`, 0o777);
    await ensurePrivateDir(`${base}/open`);
    assert.equal((await Deno.stat(`${base}/open`)).mode! & 0o777, 0o700);
    await Deno.symlink(`${base}/open`, `${base}/link`);
    await assert.rejects(() => ensurePrivateDir(`${base}/link`), /not a directory \(a symlink\?\)/);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
