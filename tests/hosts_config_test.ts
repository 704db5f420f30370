import assert from "node:assert/strict";
import { cleanEnv, startPermissions } from "./helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Runs main.ts as `deno task start` would (its permission flags for these arguments and environment). */
async function run(args: string[], env: Record<string, string> = {}, flags?: string[]) {
  const fullEnv = cleanEnv(env);
  const dir = await Deno.makeTempDir({ prefix: "tw-hosts-config-" });
  fullEnv.TMUXWRIGHT_STATE_DIR = dir;
  try {
    const permissions = flags ?? startPermissions(fullEnv, [dir]);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...permissions, `${ROOT}main.ts`, ...args],
      env: fullEnv,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A start-up mistake: exit status 2 and exactly one line on stderr. */
async function refused(args: string[], env: Record<string, string> = {}, flags?: string[]): Promise<string> {
  const result = await run(args, env, flags);
  assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], /^tmuxwright: /);
  return lines[0];
}

Deno.test("--host: malformed names and hostile destinations fail at start-up with one line", async () => {
  const cases: [string[], RegExp][] = [
    [["--host", "local=box"], /"local" is this machine/],
    [["--host", "LOCAL=box"], /"local" is this machine/],
    [["--host", "a;id=box"], /NAME must be 1 to 32 letters/],
    [["--host", `${"x".repeat(33)}=box`], /NAME must be 1 to 32/],
    [["--host=-x=box"], /NAME must be/],
    [["--host", "build=-oProxyCommand=id"], /starts with '-'/],
    [["--host", "build=a b"], /whitespace or a control character/],
    [["--host", "build=a\tb"], /whitespace or a control character/],
    [["--host", "build=a\nb"], /whitespace or a control character/],
    [["--host", "build="], /destination is empty/],
    [["--host", "build=a", "--host", "build=b"], /configured twice/],
    [["--host", "build"], /lacks a destination/],
    [["--host", "build=b", "--ssh-config", "relative/config"], /--ssh-config "relative\/config": must be an absolute/],
  ];
  for (const [args, pattern] of cases) assert.match(await refused(args), pattern, args.join(" "));
});

Deno.test("TMUXWRIGHT_HOSTS: NAME=DEST,NAME=DEST; a bad entry is named; flags win", async () => {
  assert.match(
    await refused(["doctor"], { TMUXWRIGHT_HOSTS: "a=one,b=-oProxyCommand=x" }),
    /TMUXWRIGHT_HOSTS entry for "b": the destination starts with '-'/,
  );
  assert.match(await refused(["doctor"], { TMUXWRIGHT_HOSTS: "a" }), /expected NAME=DESTINATION/);
  // doctor --host NAME picks a host the environment configured; an unknown one is named with the known ones.
  assert.match(
    await refused(["doctor", "--host", "zz"], { TMUXWRIGHT_HOSTS: "a=one,b=two" }),
    /Host "zz" is not configured \(configured: a, b\)/,
  );
  // --host flags replace the environment's hosts: its bad entry is not even read.
  assert.match(
    await refused(["--host", "a=one", "--host", "a=two"], { TMUXWRIGHT_HOSTS: "b=-bad" }),
    /Host "a" is configured twice/,
  );
});

Deno.test("hosts need ssh in the Deno permissions: without it, one line says what to grant", async () => {
  const env = cleanEnv();
  const flags = startPermissions(env).map((f) => f.startsWith("--allow-run=") ? "--allow-run=tmux" : f)
    .map((f) => f.startsWith("--allow-read=") || f.startsWith("--allow-write=") ? f.split("=")[0] : f);
  assert.match(await refused(["--host", "build=box"], {}, flags), /--allow-run=tmux,ssh/);
  // The start task adds ssh when a host is configured, by flag or environment, and only then.
  assert.ok(startPermissions(env).includes("--allow-run=tmux"));
  assert.ok(startPermissions({ ...env, TMUXWRIGHT_HOSTS: "b=box" }).includes("--allow-run=tmux,ssh"));
});

Deno.test("without hosts a process granted ssh gives it up at start-up (a compiled binary)", async () => {
  const script = `import { dropSshUnlessHosts } from "${ROOT}src/config/hosts.ts";
    const state = () => Deno.permissions.querySync({ name: "run", command: "ssh" }).state;
    const before = state();
    dropSshUnlessHosts([{ name: "b", destination: "box" }]);
    const kept = state();
    dropSshUnlessHosts([]);
    let spawned = "spawned";
    try { new Deno.Command("ssh", { args: ["-V"] }).outputSync(); } catch (e) { spawned = e.name; }
    console.log(before, kept, state(), spawned);`;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-run=tmux,ssh", `--allow-read=${ROOT}`, file],
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(file));
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(text, "granted granted prompt NotCapable", new TextDecoder().decode(out.stderr));
});

Deno.test("--help documents --host and --ssh-config with their variables", async () => {
  const { stdout } = await run(["--help"]);
  assert.match(stdout, /--host +NAME=DESTINATION.*\[TMUXWRIGHT_HOSTS\]/);
  assert.match(stdout, /--ssh-config .*ssh -F.*\[TMUXWRIGHT_SSH_CONFIG\]/);
});
