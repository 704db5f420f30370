import assert from "node:assert/strict";
import { ControlClient } from "../src/tmux/control.ts";
import { commandLine, quoteArg } from "../src/tmux/quote.ts";
import { cleanEnv } from "./helpers/harness.ts";

/**
 * Property: any string quoted by quoteArg reaches tmux over the control connection as exactly one
 * argument, byte for byte, and nothing else runs. Reproduce a failure with QUOTE_SEED=<seed>.
 */
const RUNS = Number(Deno.env.get("QUOTE_RUNS") ?? 2000);
const SEED = Number(Deno.env.get("QUOTE_SEED") ?? Date.now() % 2 ** 31);

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

const CANARY_NAME = "tw-quote-canary";
const FRAGMENTS = [
  '"',
  "'",
  ";",
  " ; ",
  "\\;",
  "\n",
  "\r",
  "\r\n",
  "\t",
  "#{",
  "}",
  "#{pane_id}",
  "#(",
  ")",
  `#(touch ${CANARY_NAME})`,
  `$(touch ${CANARY_NAME})`,
  `\`touch ${CANARY_NAME}\``,
  "$VAR",
  "$HOME",
  "${HOME}",
  "$",
  "~",
  "~root",
  "\\",
  "\\\\",
  "\\n",
  "\\033",
  "\\u0041",
  "%if #{pane_id}",
  "%endif",
  "%%",
  "{",
  "}",
  "{ set -g @pwned 1 }",
  "; set -g @pwned 1",
  "\nset -g @pwned 1\n",
  `; run-shell 'touch ${CANARY_NAME}'`,
  `\nrun-shell -b "touch ${CANARY_NAME}"\n`,
  "'\\''",
  '\\"',
  "##",
  "#[fg=red]",
  "é",
  "中文",
  "🎉",
  "\u{1F600}\u{1F680}",
  "\ud800",
  "\udfff",
  "\u200b",
  "\u00a0",
  " ",
  "\x7f",
];

function randomString(rand: () => number): string {
  const parts = 1 + Math.floor(rand() * 12);
  let out = "";
  for (let i = 0; i < parts; i++) {
    const r = rand();
    if (r < 0.55) out += FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
    else if (r < 0.7) out += String.fromCharCode(1 + Math.floor(rand() * 31)); // control bytes (no NUL)
    else if (r < 0.85) out += String.fromCharCode(0x20 + Math.floor(rand() * 95));
    else out += String.fromCodePoint(0xa0 + Math.floor(rand() * 0x2ff00)); // BMP and astral, incl. lone surrogates
  }
  if (rand() < 0.01) out = out.repeat(200); // some long values
  return out;
}

async function tmux(socket: string, ...args: string[]) {
  const out = await new Deno.Command("tmux", { args: ["-S", socket, ...args], env: cleanEnv(), stdout: "piped" })
    .output();
  return { code: out.code, bytes: out.stdout, text: new TextDecoder().decode(out.stdout) };
}

Deno.test(`quoteArg round-trips ${RUNS} random strings through a real control connection (seed ${SEED})`, async () => {
  console.log(`quote property seed: ${SEED} (rerun with QUOTE_SEED=${SEED})`);
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twq" });
  const socket = `${dir}/s`;
  assert.equal((await tmux(socket, "-f", "/dev/null", "new-session", "-d", "-s", "q")).code, 0);
  const notifications: string[] = [];
  const client = await ControlClient.connect(["-S", socket], "q", {
    notification: (name) => notifications.push(name),
  });
  const rand = mulberry32(SEED);
  try {
    // Canaries resolve relative to the tmux server's cwd and to $HOME: look in both.
    const canaries = [`${dir}/${CANARY_NAME}`, `${Deno.cwd()}/${CANARY_NAME}`, `/tmp/${CANARY_NAME}`];
    const names = new Set<string>();
    for (let i = 0; i < RUNS; i++) {
      const value = randomString(rand);
      const name = `b${i % 50}`;
      names.add(name);
      const reply = await client.run(["set-buffer", "-b", name, "--", value]);
      assert.deepEqual(reply, [], `set-buffer printed output for ${JSON.stringify(value)}`);
      // Nothing else queued: the very next reply must belong to this marker (a stray block would shift it).
      assert.deepEqual(await client.run(["display-message", "-p", `m${i}`]), [`m${i}`]);
      const shown = await tmux(socket, "show-buffer", "-b", name);
      assert.equal(shown.code, 0);
      assert.deepEqual(
        shown.bytes,
        new TextEncoder().encode(value),
        `round-trip failed for ${JSON.stringify(value)} (seed ${SEED}, run ${i})`,
      );
      assert.ok(!commandLine(["set-buffer", value]).includes("\n"), "a quoted command is one line");
    }
    const options = await tmux(socket, "show-options", "-g", "-q", "@pwned");
    assert.equal(options.text, "", "an injected set-option ran");
    const buffers = await tmux(socket, "list-buffers", "-F", "#{buffer_name}");
    assert.deepEqual(buffers.text.trim().split("\n").sort(), [...names].sort());
    for (const path of canaries) {
      await assert.rejects(Deno.stat(path), Deno.errors.NotFound, `canary ${path} exists: a shell ran`);
    }
    assert.ok(!notifications.includes("%exit"), "the control client was detached");
  } finally {
    await client.close();
    await tmux(socket, "kill-server");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("quoteArg refuses NUL without echoing the value", () => {
  assert.throws(() => quoteArg("secret-token\0tail"), (error: Error) => {
    assert.ok(error instanceof RangeError);
    assert.ok(!error.message.includes("secret-token"));
    return true;
  });
});
