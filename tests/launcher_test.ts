import assert from "node:assert/strict";
import { cleanEnv } from "./helpers/harness.ts";
import { LAUNCHER_ENV, launchFlags } from "../src/launcher/mod.ts";
import { DENO_VERSION, VERSION } from "../src/version.ts";

// The shell launcher (src/launcher/tmuxwright.sh): how it finds the runtime in the layouts npm
// makes, what the flags depend on, and the bundle `deno task start` keeps fresh. Its flags are
// proven equal to launchFlags's in tests/launcher_flags_test.ts.
const ROOT = new URL("../", import.meta.url).pathname;
const SCRIPT = `${ROOT}src/launcher/tmuxwright.sh`;
const REAL_DENO = new TextDecoder().decode(
  new Deno.Command("sh", { args: ["-c", "command -v deno"], stdout: "piped" }).outputSync().stdout,
).trim();

async function run(command: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(command, {
    args,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("the shell launcher pins the package's runtime; the flags depend on LAUNCHER_ENV alone", async () => {
  const script = await Deno.readTextFile(SCRIPT);
  assert.match(script, new RegExp(`^DENO_VERSION=${DENO_VERSION.replaceAll(".", "\\.")}$`, "m"));
  // Every variable launchFlags reads, whatever the command line, is one LAUNCHER_ENV grants.
  const permitted = (name: string) =>
    LAUNCHER_ENV.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : p === name));
  const read = new Set<string>();
  const lines = [
    [],
    ["bridge"],
    ["--host", "b=build.example", "--audit", "/a/x.log", "--audit-full=/a/full", "--policy", "/p.yml"],
    ["--http", "8080", "--tls-cert", "/c.pem", "--tls-key", "/k.pem", "--state-dir", "/s"],
    ["doctor", "--host", "b"],
  ];
  for (const args of lines) launchFlags(args, (name) => (read.add(name), undefined));
  assert.ok(read.has("TMUXWRIGHT_HOSTS") && read.has("XDG_STATE_HOME"), [...read].join());
  assert.deepEqual([...read].filter((name) => !permitted(name)), []);
});

/**
 * A fake npm layout around a copy of the script: `deno` runtimes that say which one ran (shell
 * wrappers of the real one), a server/main.js that prints what it was given (under the flags the
 * bin computed), a Node bin that says it was used.
 */
async function layout(dir: string, runtimes: Record<string, string>, packageDir: string) {
  for (const [path, version] of Object.entries(runtimes)) {
    const packagePath = path.slice(0, path.lastIndexOf("/"));
    await Deno.mkdir(`${dir}/${packagePath}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${packagePath}/package.json`, `{\n  "name": "x",\n  "version": "${version}"\n}\n`);
    if (path.endsWith("/deno")) {
      await Deno.writeTextFile(`${dir}/${path}`, `#!/bin/sh\necho ${path}\nexec ${REAL_DENO} "$@"\n`);
      await Deno.chmod(`${dir}/${path}`, 0o755);
    }
  }
  const pkg = `${dir}/${packageDir}`;
  await Deno.mkdir(`${pkg}/bin`, { recursive: true });
  await Deno.copyFile(SCRIPT, `${pkg}/bin/tmuxwright`);
  await Deno.chmod(`${pkg}/bin/tmuxwright`, 0o755);
  await Deno.writeTextFile(
    `${pkg}/bin/tmuxwright.cjs`,
    `console.log("node bin", JSON.stringify(process.argv.slice(2)))`,
  );
  await Deno.mkdir(`${pkg}/server`);
  await Deno.writeTextFile(`${pkg}/server/main.js`, `console.log(JSON.stringify(Deno.args));\n`);
  return `${pkg}/bin/tmuxwright`;
}

Deno.test("the package's bin execs the runtime Node would resolve, or hands over to the Node bin", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twsh" });
  const env = cleanEnv({ PATH: "/usr/bin:/bin" });
  const platform = (await run("uname", ["-sm"], env)).stdout.includes("x86_64")
    ? "linux-x64-glibc"
    : "linux-arm64-glibc";
  try {
    const cases: [string, Record<string, string>, string][] = [
      // npm install -g: the runtime nested below the package; its install script copied the binary.
      ["global", { "tw/node_modules/deno/deno": DENO_VERSION }, "tw/node_modules/deno/deno"],
      // npx and hoisting installs: beside the package.
      ["flat", { "node_modules/deno/deno": DENO_VERSION }, "node_modules/deno/deno"],
      // Install scripts skipped: the deno package has no binary; its platform package has.
      [
        "scripts skipped",
        { "node_modules/deno/package.json": DENO_VERSION, [`node_modules/@deno/${platform}/deno`]: DENO_VERSION },
        `node_modules/@deno/${platform}/deno`,
      ],
      // The nearest deno package is another version: not used (Node would resolve that one).
      [
        "other version",
        { "tw/node_modules/deno/deno": "2.0.0", "node_modules/deno/deno": DENO_VERSION },
        "node bin",
      ],
      ["none", {}, "node bin"],
    ];
    for (const [name, runtimes, expected] of cases) {
      const root = `${dir}/${name.replaceAll(" ", "-")}`;
      const bin = await layout(
        root,
        runtimes,
        name === "flat" || name === "scripts skipped" ? "node_modules/tw" : "tw",
      );
      // Reached through a relative link, as npm links PREFIX/bin.
      await Deno.mkdir(`${root}/bin`, { recursive: true });
      await Deno.symlink(`../${bin.slice(root.length + 1)}`, `${root}/bin/tw`);
      const out = await run(`${root}/bin/tw`, ["a b", "--x=*"], env);
      assert.equal(out.code, 0, `${name}: ${out.stderr}`);
      const want = expected === "node bin" ? `node bin ["a b","--x=*"]` : `${expected}\n["a b","--x=*"]`;
      assert.equal(out.stdout.trim(), want, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A copy of the checkout's sources (what the start bundle is built from) in a temp dir. */
async function checkoutCopy(dir: string): Promise<string> {
  const copy = await new Deno.Command("cp", {
    args: ["-R", `${ROOT}main.ts`, `${ROOT}deno.json`, `${ROOT}deno.lock`, `${ROOT}src`, dir],
  }).output();
  assert.ok(copy.success);
  return `${dir}/src/launcher/tmuxwright.sh`;
}

Deno.test("deno task start rebuilds its bundle when a source changes, and runs main.ts when it cannot build", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twstart" });
  try {
    const script = await checkoutCopy(dir);
    const env = cleanEnv();
    const start = (...args: string[]) => run("sh", [script, ...args], env);
    const version = `${dir}/src/version.ts`;
    const setVersion = async (v: string) =>
      await Deno.writeTextFile(
        version,
        (await Deno.readTextFile(version)).replace(/VERSION = "[^"]*"/, `VERSION = "${v}"`),
      );

    assert.equal((await start("--version")).stdout, `tmuxwright ${VERSION}\n`);
    const built = await Deno.stat(`${dir}/dist/start/SOURCES`);
    assert.equal((await start("--version")).code, 0);
    assert.equal((await Deno.stat(`${dir}/dist/start/SOURCES`)).ino, built.ino, "rebuilt with nothing changed");

    // An edit: the next start runs it. Two starts at once build it once, and both run it.
    await setVersion("9.9.9");
    const both = await Promise.all([start("--version"), start("--version")]);
    for (const out of both) assert.equal(out.stdout, "tmuxwright 9.9.9\n", out.stderr);
    assert.deepEqual(
      [...Deno.readDirSync(`${dir}/dist`)].map((e) => e.name).sort(),
      ["start"],
      "a build left something behind",
    );

    // A source that does not build: main.ts runs and says what is wrong; no rebuild until it changes.
    await Deno.writeTextFile(version, "export const broken = ;\n", { append: true });
    const broken = await start("--version");
    assert.notEqual(broken.code, 0);
    assert.match(broken.stderr, /version\.ts/);
    const failed = await Deno.stat(`${dir}/dist/start.failed`);
    assert.notEqual((await start("--version")).code, 0);
    assert.deepEqual((await Deno.stat(`${dir}/dist/start.failed`)).mtime, failed.mtime, "it tried to build again");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
