import assert from "node:assert/strict";
import { cleanEnv } from "./helpers/harness.ts";
import { Client, StdioClientTransport } from "./helpers/sdk_client.ts";
import { StreamableHTTPClientTransport } from "./helpers/sdk_http_client.ts";
import { argvOf, denoRunBelow, descendants } from "./helpers/proc_tree.ts";
import { findDeno, launchFlags } from "../src/launcher/mod.ts";
import { DENO_VERSION, VERSION } from "../src/version.ts";
import { pack } from "../scripts/pack.ts";

// The npm package as a user gets it: built by `deno task pack`, installed with npm into an empty
// prefix, run with a PATH that has Node and tmux but no Deno, driven by the official SDK client.
const ROOT = new URL("../", import.meta.url).pathname;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A directory of links to every program on PATH except deno (the first of each name, as PATH finds it). */
async function pathWithoutDeno(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const from of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":").filter((d) => d.startsWith("/"))) {
    try {
      for await (const entry of Deno.readDir(from)) {
        if (entry.name !== "deno") await Deno.symlink(`${from}/${entry.name}`, `${dir}/${entry.name}`).catch(() => {});
      }
    } catch { /* a PATH entry that does not exist */ }
  }
  return dir;
}

async function run(command: string, args: string[], env: Record<string, string>, cwd?: string) {
  const out = await new Deno.Command(command, {
    args,
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Reads a child's stdout until `pattern` matches; returns the match. */
async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp): Promise<RegExpMatchArray> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      seen += decoder.decode(read.value, { stream: true });
      const match = seen.match(pattern);
      if (match) return match;
    }
  } finally {
    reader.releaseLock();
  }
  throw new Error(`output ended without ${pattern}: ${seen}`);
}

Deno.test("server.json describes the npm package deno task pack builds", async () => {
  const server = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`));
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.equal(server.$schema, "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
  assert.match(server.name, /^[a-z0-9-]+(\.[a-z0-9-]+)+\/[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$/);
  assert.equal(server.name.split("/").length, 2);
  assert.ok(server.description.length <= 100, `${server.description.length} characters`);
  assert.equal(server.version, VERSION);
  assert.equal(config.version, VERSION);
  assert.equal(server.packages.length, 1);
  const [entry] = server.packages;
  assert.deepEqual(
    { type: entry.registryType, id: entry.identifier, version: entry.version, transport: entry.transport },
    { type: "npm", id: "tmuxwright", version: VERSION, transport: { type: "stdio" } },
  );
  // The runtime CI installs is the one the package pins.
  assert.match(
    await Deno.readTextFile(`${ROOT}.ci/install`),
    new RegExp(`^DENO_VERSION=${DENO_VERSION.replaceAll(".", "\\.")}$`, "m"),
  );

  const tarball = `${ROOT}${await pack()}`;
  assert.ok(tarball.endsWith(`dist/tmuxwright-${VERSION}.tgz`), tarball);
  assert.ok((await Deno.stat(tarball)).size <= 6_000_000);
  const files = (await run("tar", ["tzf", tarball], cleanEnv())).stdout.trim().split("\n").sort();
  // The command (which computes the flags), its Node fallback, and the server in chunks (server/*.js).
  assert.deepEqual(files.filter((file) => !/^package\/server\/[a-z_-]+-[A-Z0-9]{8}\.js$/i.test(file)), [
    "package/LICENSE",
    "package/README.md",
    "package/bin/tmuxwright",
    "package/bin/tmuxwright.cjs",
    "package/package.json",
    "package/server/main.js",
  ]);
  const manifest = JSON.parse((await run("tar", ["xzOf", tarball, "package/package.json"], cleanEnv())).stdout);
  assert.equal(manifest.name, entry.identifier);
  assert.equal(manifest.version, server.version);
  assert.equal(manifest.mcpName, server.name);
  assert.deepEqual(manifest.bin, { tmuxwright: "bin/tmuxwright" });
  assert.deepEqual(manifest.dependencies, { deno: DENO_VERSION });
});

Deno.test("the installed package serves every command with the start task's permissions, with no deno on PATH", async (t) => {
  const work = await Deno.makeTempDir({ dir: "/tmp", prefix: "twpkg" });
  try {
    const tarball = `${ROOT}${await pack()}`;
    const path = `${work}/prefix/bin:${await pathWithoutDeno(`${work}/bin`)}`;
    const env = cleanEnv({ PATH: path });
    // Without install scripts (as npm may run it): the deno package's postinstall never copies its binary.
    const installed = await run(
      "npm",
      ["install", "-g", "--ignore-scripts", "--prefix", `${work}/prefix`, tarball],
      env,
    );
    assert.equal(installed.code, 0, installed.stderr);
    const modules = `${work}/prefix/lib/node_modules/tmuxwright/node_modules`;
    await assert.rejects(Deno.stat(`${modules}/deno/deno`), Deno.errors.NotFound);
    assert.notEqual((await run("sh", ["-c", "command -v deno"], env)).code, 0, "deno is on PATH");
    const bin = `${work}/prefix/bin/tmuxwright`;
    const entry = `${work}/prefix/lib/node_modules/tmuxwright/server/main.js`;
    const args = ["--socket-path", `${work}/s`, "--state-dir", `${work}/state`];

    /**
     * The process the bin started is the server itself (the shell exec'd the runtime: no Node, no
     * launcher left): the package's runtime, with the launcher's flags.
     */
    const checkDeno = (pid: number, argv: string[]) => {
      const deno = argvOf(pid);
      // The runtime of the platform package beside the deno package (@deno/linux-x64-glibc here).
      assert.match(deno[0], new RegExp(`^${modules}/@deno/[a-z0-9-]+/deno$`));
      assert.deepEqual(deno.slice(1), ["run", "--no-config", ...launchFlags(argv, (n) => env[n]), entry, ...argv]);
      assert.deepEqual(descendants(pid).filter((p) => !p.argv[0].endsWith("tmux")), []);
    };

    await t.step("--version prints the package's version; exit statuses pass through", async () => {
      const out = await run(bin, ["--version"], env);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, `tmuxwright ${VERSION}\n`);
      // The server's exit status and its one-line error come through the bin.
      const bad = await run(bin, ["--safety", "reckless"], env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^tmuxwright: Invalid --safety "reckless"/);
    });

    await t.step("stdio: exact execute_command output through the SDK client", async () => {
      const transport = new StdioClientTransport({ command: bin, args, env, stderr: "pipe" });
      const client = new Client({ name: "tmuxwright-tests", version: "0.0.0" });
      await client.connect(transport);
      try {
        checkDeno(transport.pid!, args);
        const result = await client.callTool({
          name: "execute_command",
          arguments: { command: "printf 'one\\ntwo\\n'; echo three; false" },
        });
        const structured = result.structuredContent as { output: string; exit_code: number };
        assert.equal(structured.output, "one\ntwo\nthree");
        assert.equal(structured.exit_code, 1);
        // attach, from another terminal, finds this server's workspace.
        const list = await run(bin, ["attach", "--list", ...args], env);
        assert.equal(list.code, 0, list.stderr);
        assert.match(list.stdout, new RegExp(`tmuxwright-\\d+ .*running`), list.stdout);
      } finally {
        await client.close();
      }
    });

    await t.step("doctor prints the one-line install", async () => {
      const doctor = await run(bin, ["doctor", ...args], env);
      assert.match(doctor.stdout, /claude mcp add tmuxwright -- npx -y tmuxwright/, doctor.stderr);
    });

    await t.step("--http: MCP over HTTP", async () => {
      const httpArgs = [...args, "--http", "127.0.0.1:0"];
      const child = new Deno.Command(bin, { args: httpArgs, env, clearEnv: true, stdin: "null", stdout: "piped" })
        .spawn();
      try {
        const [, url] = await readUntil(child.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
        checkDeno(child.pid, httpArgs);
        const client = new Client({ name: "tmuxwright-tests", version: "0.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
        assert.ok((await client.listTools()).tools.some((tool) => tool.name === "execute_command"));
        await client.close();
      } finally {
        child.kill("SIGTERM"); // the server itself: the bin exec'd it
        assert.equal((await child.status).code, 0);
      }
    });

    await t.step("bridge", async () => {
      const bridgeEnv: Record<string, string> = { ...env, PORT: "0", TMUX_BRIDGE_SOCKET_PATH: `${work}/bridge.sock` };
      const child = new Deno.Command(bin, {
        args: ["bridge"],
        env: bridgeEnv,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
      })
        .spawn();
      try {
        const [, url] = await readUntil(child.stdout, /listening on (http:\/\/[^\s]+)/);
        assert.deepEqual(argvOf(child.pid).slice(2, -2), [
          "--no-config",
          ...launchFlags(["bridge"], (n) => bridgeEnv[n]),
        ]);
        const health = await fetch(`${url}/v1/tmux/health`);
        await health.body?.cancel();
        assert.ok(health.status < 500, String(health.status));
      } finally {
        child.kill("SIGTERM");
        await child.status;
      }
    });

    await t.step(
      "with no runtime in node_modules, the Node bin runs a deno on PATH of the pinned version",
      async () => {
        await Deno.rename(`${modules}/@deno`, `${work}/moved-runtime`);
        try {
          const denoDir = (await run("sh", ["-c", "command -v deno"], cleanEnv())).stdout.trim().replace(/\/deno$/, "");
          const withDeno = { ...env, PATH: `${env.PATH}:${denoDir}` };
          const out = await run(bin, ["--version"], withDeno);
          assert.equal(out.code, 0, out.stderr);
          assert.equal(out.stdout, `tmuxwright ${VERSION}\n`);
          const transport = new StdioClientTransport({ command: bin, args, env: withDeno, stderr: "pipe" });
          const client = new Client({ name: "tmuxwright-tests", version: "0.0.0" });
          await client.connect(transport);
          try {
            assert.match(argvOf(transport.pid!)[0], /(^|\/)node$/);
            const deno = denoRunBelow(transport.pid!, "/server/main.js");
            assert.deepEqual(deno?.argv.slice(1), [
              "run",
              "--no-config",
              ...launchFlags(args, (n) => env[n]),
              entry,
              ...args,
            ]);
            assert.ok((await client.listTools()).tools.some((tool) => tool.name === "execute_command"));
          } finally {
            await client.close();
          }
          // Without one, one line says what to do.
          const none = await run(bin, ["--version"], env);
          assert.equal(none.code, 2);
          assert.match(
            none.stderr,
            new RegExp(`^tmuxwright: Cannot find the Deno runtime ${DENO_VERSION}: .*npm install -g deno@`),
          );
        } finally {
          await Deno.rename(`${work}/moved-runtime`, `${modules}/@deno`);
        }
      },
    );

    await t.step("npx -y runs the tarball", async () => {
      const out = await run("npx", ["-y", `--package=${tarball}`, "tmuxwright", "--version"], env, work);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, `tmuxwright ${VERSION}\n`);
    });
  } finally {
    await new Deno.Command("tmux", { args: ["-S", `${work}/s`, "kill-server"], stderr: "null" }).output();
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("without the deno package, a deno on PATH is used only at exactly the pinned version", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twrt" });
  try {
    const onPath = (await run("sh", ["-c", "command -v deno"], cleanEnv())).stdout.trim();
    const binDir = onPath.slice(0, onPath.lastIndexOf("/"));
    // `from` has no deno package in reach: only PATH can answer.
    assert.equal(findDeno(`${dir}/package.json`, Deno.version.deno, `${dir}:${binDir}`), onPath);
    assert.throws(
      () => findDeno(`${dir}/package.json`, "2.0.0", binDir),
      /Cannot find the Deno runtime 2\.0\.0: .* no deno 2\.0\.0 is on PATH; .*npm install -g deno@2\.0\.0/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
