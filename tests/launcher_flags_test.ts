import assert from "node:assert/strict";
import { LAUNCHER_ENV, launchFlags } from "../src/launcher/mod.ts";
import { DENO_VERSION } from "../src/version.ts";

// The shell launcher (src/launcher/tmuxwright.sh) computes the server's flags itself, so that the
// runtime starts once; permissions.ts holds the rules. Here both run on the same command lines and
// environments (a table of the cases each rule has, then seeded random mixes of them) under every
// POSIX shell on the machine, and the flags the shell execs the runtime with must be launchFlags's.
const ROOT = new URL("../", import.meta.url).pathname;
const SCRIPT = `${ROOT}src/launcher/tmuxwright.sh`;

/**
 * The shells a `#!/bin/sh` runs under somewhere (dash, bash as macOS's sh, ksh, mksh, yash, busybox,
 * zsh). yash replaces an argument it cannot decode with an empty one (any script's `"$@"`), so it
 * runs in a UTF-8 locale.
 */
const SHELLS = [["dash"], ["bash", "--posix"], ["ksh"], ["mksh"], ["yash"], ["busybox", "sh"], [
  "zsh",
  "--emulate",
  "sh",
]]
  .filter(([shell]) =>
    new Deno.Command("sh", { args: ["-c", `command -v ${shell}`], stdout: "null" }).outputSync().success
  );

type Env = Record<string, string>;
type Case = [args: string[], env: Env];

const HOME = { HOME: "/home/u" };
/** Each rule of launchFlags, and the edges of its string handling. */
const TABLE: Case[] = [
  [[], HOME],
  [[], {}], // no HOME: /tmp
  [[], { HOME: "" }],
  [[], { HOME: "/" }],
  [[], { HOME: "/h//" }],
  [[], { HOME: "/h", XDG_STATE_HOME: "/x/" }],
  [[], { HOME: "/h", XDG_STATE_HOME: "" }],
  [[], { XDG_STATE_HOME: "//" }],
  [["--state-dir", "/s"], HOME],
  [["--state-dir=/s/"], { ...HOME, TMUXWRIGHT_STATE_DIR: "/e" }],
  [[], { ...HOME, TMUXWRIGHT_STATE_DIR: "/e" }],
  [["--state-dir="], { ...HOME, TMUXWRIGHT_STATE_DIR: "/e" }],
  [["--state-dir"], { ...HOME, TMUXWRIGHT_STATE_DIR: "/e" }],
  [["--state-dir", "/a", "--state-dir=/b"], HOME],
  [["--", "--state-dir", "/a"], HOME],
  [["--audit", "--state-dir", "/x"], HOME], // --audit takes "--state-dir" as its value
  [["--host", "b=build.example"], HOME],
  [["--host=c=podman://box"], HOME],
  [["--host", "d=DOCKER://box", "--host", "e=ssh://u@h:22", "--host", "f=Podman://p"], HOME],
  [["--host", "f=foo://x"], HOME], // an unknown scheme: no program (the server refuses it)
  // Not a scheme (ssh), each alone: a digit first, a character outside the scheme's, one slash.
  [["--host", "g=1x://y"], HOME],
  [["--host", "h=a_b://y"], HOME],
  [["--host", "i=x:/y"], HOME],
  [["--host", "j=x+y.z-w://q"], HOME],
  [["--host", "k=://q"], HOME],
  [["--host", "l=é://q"], HOME],
  [["--host", "doc=pod:man://x"], HOME],
  [["doctor", "--host", "b"], { ...HOME, TMUXWRIGHT_HOSTS: "a=docker://c,b=x" }],
  [["--host", "b=x"], { ...HOME, TMUXWRIGHT_HOSTS: "a=podman://c" }],
  [[], { ...HOME, TMUXWRIGHT_HOSTS: ",a=docker://x,,bare,b=ssh://y," }],
  [[], { ...HOME, TMUXWRIGHT_HOSTS: "a=podman://x=y,b=docker://z" }],
  [["--", "--host", "b=podman://x"], HOME],
  [["--host", "--", "--host", "b=docker://x"], HOME],
  [["--host"], { ...HOME, TMUXWRIGHT_HOSTS: "a=podman://c" }],
  [["--audit", "/a/x.log", "--audit-full=/a/full", "--policy", "/p.yml"], HOME],
  [["--audit", "x.log"], HOME],
  [["--audit", "/top.log"], HOME],
  [["--audit", "/a/b//", "--audit-full", "/s/full"], { HOME: "/h", TMUXWRIGHT_STATE_DIR: "/s/" }],
  [["--state-dir", "/s"], { ...HOME, TMUX_DEBUG_AUDIT: "/s/in/a.log", TMUX_DEBUG_AUDIT_FULL: "/f" }],
  [["--audit="], { ...HOME, TMUX_DEBUG_AUDIT: "/a/x.log" }],
  [["--policy="], { ...HOME, TMUXWRIGHT_POLICY: "/p.yml" }],
  [[], { ...HOME, TMUXWRIGHT_POLICY: "/p.yml", TMUX_DEBUG_AUDIT: "/", TMUX_DEBUG_AUDIT_FULL: "" }],
  [["--http", "8080", "--tls-cert", "/c.pem", "--tls-key", "/k.pem", "--state-dir", "/s"], HOME],
  [["--tls-cert", "/same", "--policy", "/same", "--tls-key=/same"], HOME],
  [["--state-dir", "/s", "--policy", "/s", "--audit", "/s/x", "--audit-full", "/s"], HOME],
  [["--state-dir", ""], { ...HOME, TMUX_DEBUG_AUDIT: "/a/x", TMUXWRIGHT_POLICY: "rel.yml" }],
  [[], { ...HOME, TMUXWRIGHT_TLS_CERT: "/c", TMUXWRIGHT_TLS_KEY: "/k" }],
  [["bridge"], { ...HOME, USER: "ann" }],
  [["bridge"], HOME],
  [["bridge", "--state-dir", "/s", "--host", "b=podman://x", "--audit", "/a/x"], {
    ...HOME,
    TMUXWRIGHT_STATE_DIR: "/e",
  }],
  [["bridge", "--tls-cert", "/c", "--tls-key=/e/k"], { ...HOME, TMUXWRIGHT_STATE_DIR: "/e", TMUXWRIGHT_POLICY: "/p" }],
  [["--version", "bridge"], HOME],
  [["--state-dir", "/with space/*/[a]/$HOME/\\n/é"], HOME],
  [["--state-dir", "/line\nbreak", "--audit", "/a,b/c", "--policy", "-p"], { HOME: "/h ome", USER: "a b" }],
  [["--audit", "/x\n/y"], { HOME: "/h\n" }],
];

/** Seeded random mixes of the pieces the rules look at (xorshift32: the same cases every run). */
function mixes(count: number, seed: number): Case[] {
  let state = seed;
  const next = (n: number) => {
    state ^= state << 13, state ^= state >>> 17, state ^= state << 5;
    return (state >>> 0) % n;
  };
  const pick = <T>(items: readonly T[]) => items[next(items.length)];
  const paths = ["/s", "/s/", "/s/a", "/t/x.log", "rel", "", "/", "//", "/a b,c", "/s/../o", "*"];
  const flags = ["state-dir", "audit", "audit-full", "policy", "tls-cert", "tls-key", "host"];
  const hosts = ["b=x", "c=podman://p", "d=docker://d", "e=ssh://e", "f=zz://f", "bare", "g=DOCKER://g"];
  const names = ["HOME", "XDG_STATE_HOME", "USER", "TMUXWRIGHT_STATE_DIR", "TMUX_DEBUG_AUDIT"];
  const moreNames = ["TMUX_DEBUG_AUDIT_FULL", "TMUXWRIGHT_POLICY", "TMUXWRIGHT_TLS_CERT", "TMUXWRIGHT_TLS_KEY"];
  const cases: Case[] = [];
  for (let n = 0; n < count; n++) {
    const args: string[] = next(5) === 0 ? ["bridge"] : [];
    for (let k = next(7); k > 0; k--) {
      const flag = pick(flags);
      const value = flag === "host" ? pick(hosts) : pick(paths);
      const form = next(6);
      if (form === 0) args.push(`--${flag}=${value}`);
      else if (form === 1) args.push(pick(["--", "--http", "bridge", value]));
      else args.push(`--${flag}`, value);
    }
    const env: Env = {};
    for (const name of [...names, ...moreNames]) if (next(3) === 0) env[name] = pick(paths);
    if (next(3) === 0) env.TMUXWRIGHT_HOSTS = [pick(hosts), pick(hosts), pick(["", "h=podman://x"])].join(",");
    cases.push([args, env]);
  }
  return cases;
}

/** A package layout whose runtime prints the arguments it is given (NUL-terminated) instead of running. */
async function printingPackage(dir: string): Promise<string> {
  const pkg = `${dir}/tw`;
  for (const path of [`${pkg}/bin`, `${pkg}/server`, `${pkg}/node_modules/deno`]) {
    await Deno.mkdir(path, { recursive: true });
  }
  await Deno.copyFile(SCRIPT, `${pkg}/bin/tmuxwright`);
  await Deno.writeTextFile(`${pkg}/server/main.js`, "");
  await Deno.writeTextFile(`${pkg}/node_modules/deno/package.json`, `{\n  "version": "${DENO_VERSION}"\n}\n`);
  await Deno.writeTextFile(`${pkg}/node_modules/deno/deno`, `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done\n`);
  await Deno.chmod(`${pkg}/node_modules/deno/deno`, 0o755);
  return pkg;
}

Deno.test("the shell launcher execs the runtime with exactly launchFlags's flags, under every POSIX shell", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twflags" });
  try {
    const pkg = await printingPackage(dir);
    const cases = [...TABLE, ...mixes(150, 0x2545f491)];
    assert.ok(SHELLS.some(([s]) => s === "dash") && SHELLS.some(([s]) => s === "bash"), JSON.stringify(SHELLS));
    for (const shell of SHELLS) {
      for (const [args, env] of cases) {
        const out = await new Deno.Command(shell[0], {
          args: [...shell.slice(1), `${pkg}/bin/tmuxwright`, ...args],
          env: { PATH: "/usr/bin:/bin", ...(shell[0] === "yash" ? { LC_ALL: "C.UTF-8" } : {}), ...env },
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const what = `${shell.join(" ")} ${JSON.stringify(args)} ${JSON.stringify(env)}`;
        assert.equal(out.code, 0, `${what}: ${new TextDecoder().decode(out.stderr)}`);
        const argv = new TextDecoder().decode(out.stdout).split("\0").slice(0, -1);
        const expected = [
          "run",
          "--no-config",
          ...launchFlags(args, (name) => env[name]),
          `${pkg}/server/main.js`,
          ...args,
        ];
        assert.deepEqual(argv, expected, what);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the shell launcher reads no variable outside LAUNCHER_ENV but its own", async () => {
  const script = await Deno.readTextFile(SCRIPT);
  const own = new Set([...script.matchAll(/^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const read = new Set(
    [...script.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]).filter((name) => !own.has(name)),
  );
  const permitted = (name: string) =>
    LAUNCHER_ENV.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : p === name));
  assert.ok(read.has("TMUXWRIGHT_HOSTS") && read.has("XDG_STATE_HOME") && read.has("USER"), [...read].join());
  assert.deepEqual([...read].filter((name) => !permitted(name)), []);
  assert.deepEqual([...own].sort(), ["ALNUM", "DENO_NO_UPDATE_CHECK", "DENO_VERSION"]);
});
