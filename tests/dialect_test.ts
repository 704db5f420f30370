import assert from "node:assert/strict";
import { ControlClient } from "../src/tmux/control.ts";
import { tmuxOneShot } from "../src/tmux/oneshot.ts";
import { doubledBackslashes, unvis } from "../src/tmux/printed.ts";
import { supportedVersion } from "../src/tmux/dialect.ts";
import { cleanEnv, tmuxVersion } from "./helpers/harness.ts";

/**
 * What the tmux on PATH does differently (src/tmux/dialect.ts), found by the connection's probes,
 * and values read back exactly through formats whatever the release: .ci/run runs this file on
 * every release from 3.2a to master. Reproduce a failure with DIALECT_SEED=<seed>.
 */
const RUNS = Number(Deno.env.get("DIALECT_RUNS") ?? 300);
const SEED = Number(Deno.env.get("DIALECT_SEED") ?? Date.now() % 2 ** 31);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What vis(3) and tmux 3.4's `$` rule change, and what looks like their escapes. */
const FRAGMENTS = [
  "\\",
  "\\\\",
  "\\037",
  "\\001",
  "\\t",
  "\\r",
  "\\$",
  "\\0",
  "$HOME",
  "${x}",
  "$_",
  "$1",
  "$",
  "\x01",
  "\x1b[31m",
  "\r",
  "\t",
  "\x7f",
  "#{pane_id}",
  "##",
  "é",
  "中文",
  "🎉",
  " ",
  "'",
  '"',
];

function randomValue(rand: () => number): string {
  let out = "";
  for (let parts = 1 + Math.floor(rand() * 8); parts > 0; parts--) {
    const r = rand();
    if (r < 0.7) out += FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
    else if (r < 0.8) out += String.fromCharCode(1 + Math.floor(rand() * 8)); // control bytes, not \t \n
    else out += String.fromCharCode(0x20 + Math.floor(rand() * 95));
  }
  return out;
}

Deno.test("unvis undoes tmux 3.4's escapes of a printed line whose data backslashes were doubled", () => {
  assert.equal(unvis("a\\037b\\001c"), "a\x1fb\x01c");
  assert.equal(unvis("\\\\t is not a tab, \\t is"), "\\t is not a tab, \t is");
  assert.equal(unvis("\\$HOME \\\\$HOME"), "$HOME \\$HOME");
  assert.equal(unvis("\\r\\a\\b\\v\\f\\s"), "\r\x07\b\v\f ");
  assert.equal(unvis("\\303\\251"), "\uFFFD\uFFFD"); // invalid bytes alone, as a raw one would read
  assert.equal(unvis("plain"), "plain");
  assert.equal(doubledBackslashes("#{pane_id} #{pane_title} a\\b"), "#{pane_id} #{s/\\\\/\\\\\\\\/:pane_title} a\\\\b");
});

Deno.test("tmux releases older than 3.2 are refused; every later release, master and next builds are not", () => {
  for (const version of ["3.2", "3.2a", "3.3a", "3.4", "3.5a", "3.6b", "3.7c", "next-3.8", "master", "4.0"]) {
    assert.ok(supportedVersion(version), version);
  }
  for (const version of ["3.1c", "3.0a", "2.9", "tmux 3.1b"]) assert.ok(!supportedVersion(version), version);
});

Deno.test(`the connection's probes find the release on PATH, and ${RUNS} values read back exactly (seed ${SEED})`, async () => {
  console.log(`dialect seed: ${SEED} (rerun with DIALECT_SEED=${SEED})`);
  const version = await tmuxVersion();
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twd" });
  const socket = ["-S", `${dir}/s`];
  const started = await new Deno.Command("tmux", {
    args: [...socket, "-f", "/dev/null", "new-session", "-d", "-s", "d", "sleep 600"],
    env: cleanEnv(),
  }).output();
  assert.equal(started.code, 0);
  const client = await ControlClient.connect(socket, "d");
  try {
    const dialect = client.dialect;
    assert.equal(dialect.version, version);
    assert.equal(dialect.printsEscaped, /^3\.[45]/.test(version), `printsEscaped on ${version}`);
    assert.equal(dialect.pasteNeedsRaw, !/^3\.[2-6]/.test(version), `pasteNeedsRaw on ${version}`);
    assert.equal(dialect.windowsTakeClientSize, version.startsWith("3.2"), `windowsTakeClientSize on ${version}`);

    const rand = mulberry32(SEED);
    for (let i = 0; i < RUNS; i++) {
      const value = randomValue(rand);
      await client.run(["set-option", "-g", "@tw_value", value]);
      const [control] = await client.run(["display-message", "-p", "#{@tw_value}"]);
      assert.equal(control, value, `control connection, seed ${SEED}, run ${i}: ${JSON.stringify(value)}`);
      const [listed] = await client.run(["list-sessions", "-F", "#{session_name}\x1f#{@tw_value}\x1f#{session_id}"]);
      assert.deepEqual(listed.split("\x1f"), ["d", value, "$0"], `list-sessions, run ${i}`);
      if (i % 20 === 0) {
        const oneShot = await tmuxOneShot([...socket, "display-message", "-p", "#{@tw_value}"]);
        assert.equal(oneShot.stdout, `${value}\n`, `one-shot client, run ${i}: ${JSON.stringify(value)}`);
      }
    }

    // A paste reaches the pane byte for byte (3.7 passes pastes through vis(3) unless told not to).
    await client.run(["set-buffer", "-b", "tw-paste", "--", "\x1b[200~x\x1b[201~"]);
    await client.run(["new-window", "-d", "-t", "=d:", "-n", "paste", "head -c 13 | od -An -tx1; sleep 600"]);
    await client.run(["paste-buffer", "-d", "-b", "tw-paste", "-t", "=d:paste"]);
    await client.run(["send-keys", "-t", "=d:paste", "Enter"]);
    let screen = "";
    for (let tries = 0; tries < 100 && !/ 7e\s*$/m.test(screen); tries++) {
      screen = (await client.run(["capture-pane", "-p", "-t", "=d:paste"])).join("\n");
      await new Promise((r) => setTimeout(r, 50));
    }
    // ESC [ 2 0 0 ~ x ESC [ 2 0 1 ~, as bytes: an escaped ESC would read ^ [ (5e 5b).
    assert.match(screen, /1b 5b 32 30 30 7e 78 1b 5b 32 30 31 7e/);
  } finally {
    await client.close();
    await tmuxOneShot([...socket, "kill-server"]).catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
