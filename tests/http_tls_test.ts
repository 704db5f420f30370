import assert from "node:assert/strict";
import { HttpConfigError, serveHttp, StubBackend } from "../src/http/mod.ts";

/** A throwaway self-signed certificate for localhost and 127.0.0.1. */
async function selfSigned(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const certFile = `${dir}/cert.pem`;
  const keyFile = `${dir}/key.pem`;
  const out = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-addext",
      "basicConstraints=critical,CA:FALSE",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return { certFile, keyFile };
}

Deno.test("TLS: the listener serves HTTPS from PEM files; plain HTTP to it fails", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tw-tls" });
  const tls = await selfSigned(dir);
  const server = await serveHttp({ hostname: "127.0.0.1", port: 0, tls, bridge: new StubBackend(), log: () => {} });
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(tls.certFile)] });
  try {
    assert.equal(server.url, `https://127.0.0.1:${server.port}`);
    const health = await fetch(`https://127.0.0.1:${server.port}/health`, { client });
    assert.deepEqual(await health.json(), { ok: true, mode: "stub", backend: "stub", sessions: 0 });
    await assert.rejects(() => fetch(`http://127.0.0.1:${server.port}/health`));
  } finally {
    client.close();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TLS: a missing certificate is one clear start-up error", async () => {
  await assert.rejects(
    () =>
      serveHttp({
        hostname: "127.0.0.1",
        port: 0,
        tls: { certFile: "/nonexistent/cert.pem", keyFile: "/nonexistent/key.pem" },
        bridge: new StubBackend(),
      }),
    (error: Error) =>
      error instanceof HttpConfigError &&
      /^Cannot read the TLS certificate "\/nonexistent\/cert\.pem": .*pass --tls-cert and --tls-key$/.test(
        error.message,
      ),
  );
});
