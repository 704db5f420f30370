import assert from "node:assert/strict";
import { cleanEnv, runMain, startPermissions } from "./helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Runs main.ts as `deno task start` would (its permission flags for these arguments and environment). */
async function run(args: string[], env: Record<string, string> = {}, flags?: string[]) {
  const fullEnv = cleanEnv(env);
  const dir = await Deno.makeTempDir({ prefix: "tw-hosts-config-" });
  fullEnv.TMUXWRIGHT_STATE_DIR = dir;
  try {
    return await runMain(args, fullEnv, flags ?? startPermissions(fullEnv, [dir]));
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
    [
      ["--host", "box=kubectl://pod"],
      /for "box": unknown scheme "kubectl:\/\/"; use ssh:\/\/, podman:\/\/ or docker:\/\//,
    ],
    [["--host", "box=http://example.com"], /unknown scheme "http:\/\/"/],
    [["--host", "box=podman://"], /"" is not a container name .*give podman:\/\/CONTAINER/],
    [["--host", "box=podman://-it"], /"-it" is not a container name/],
    [["--host", "box=docker://a/b"], /"a\/b" is not a container name/],
    [["--host", "box=docker://a:b"], /"a:b" is not a container name/],
    [["--host", `box=podman://${"c".repeat(129)}`], /is not a container name \(1 to 128/],
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

Deno.test("podman:// and docker:// name containers; ssh://, aliases and user@host stay ssh", async () => {
  const { parseHostFlags, linkPrograms } = await import("../src/config/hosts.ts");
  const { hosts } = parseHostFlags([
    "a=podman://dev_1.x-y",
    "b=docker://0abc",
    "c=ssh://deploy@10.0.0.7:2222",
    "d=build",
    "e=user@host",
    "f=PODMAN://Caps",
  ], false);
  assert.deepEqual(hosts, [
    { name: "a", destination: "podman://dev_1.x-y", kind: "podman", container: "dev_1.x-y" },
    { name: "b", destination: "docker://0abc", kind: "docker", container: "0abc" },
    { name: "c", destination: "ssh://deploy@10.0.0.7:2222", kind: "ssh" },
    { name: "d", destination: "build", kind: "ssh" },
    { name: "e", destination: "user@host", kind: "ssh" },
    { name: "f", destination: "PODMAN://Caps", kind: "podman", container: "Caps" },
  ]);
  assert.deepEqual(linkPrograms(hosts), ["ssh", "podman", "docker"]);
  // The environment's form takes them too.
  const fromEnv = parseHostFlags(["dev=podman://box,web=build"], true).hosts;
  assert.deepEqual(fromEnv.map((h) => `${h.name} ${h.kind} ${h.container ?? "-"}`), ["dev podman box", "web ssh -"]);
});

Deno.test("hosts need ssh in the Deno permissions: without it, one line says what to grant", async () => {
  const env = cleanEnv();
  const flags = startPermissions(env).map((f) => f.startsWith("--allow-run=") ? "--allow-run=tmux" : f)
    .map((f) => f.startsWith("--allow-read=") || f.startsWith("--allow-write=") ? f.split("=")[0] : f);
  assert.match(await refused(["--host", "build=box"], {}, flags), /--allow-run=tmux,ssh/);
  // The start task adds ssh when a host is configured, by flag or environment, and only then.
  assert.ok(startPermissions(env).includes("--allow-run=tmux"));
  assert.ok(startPermissions({ ...env, TMUXWRIGHT_HOSTS: "b=box" }).includes("--allow-run=tmux,ssh"));
  // A container host needs its runtime, and exactly the runtimes the hosts use.
  assert.match(
    await refused(["--host", "dev=podman://box"], {}, flags),
    /--host dev needs podman, .*--allow-run=tmux,podman /,
  );
  assert.ok(startPermissions({ ...env, TMUXWRIGHT_HOSTS: "d=docker://box" }).includes("--allow-run=tmux,docker"));
  const both = startPermissions(env, [], ["--host", "a=podman://x", "--host", "b=build"]);
  assert.ok(both.includes("--allow-run=tmux,ssh,podman"), both.join(" "));
  // Flags win over the environment, as in the server: only the flags' hosts count.
  const flagsWin = startPermissions({ ...env, TMUXWRIGHT_HOSTS: "d=docker://box" }, [], ["--host", "b=build"]);
  assert.ok(flagsWin.includes("--allow-run=tmux,ssh"), flagsWin.join(" "));
  // The runtime's variables must be readable to be passed on.
  const noEnv = startPermissions({ ...env, TMUXWRIGHT_HOSTS: "d=docker://box" })
    .map((f) => f.startsWith("--allow-env=") ? f.replace(",DOCKER_HOST,CONTAINER_HOST,DOCKER_CONTEXT", "") : f)
    .map((f) => f.startsWith("--allow-read=") || f.startsWith("--allow-write=") ? f.split("=")[0] : f);
  assert.match(
    await refused(["--host", "d=docker://box"], {}, noEnv),
    /passes DOCKER_HOST, .* add them to --allow-env/,
  );
});

Deno.test("a process granted every link program gives up those no host uses at start-up (a compiled binary)", async () => {
  const script = `import { dropUnusedLinkGrants } from "${ROOT}src/config/hosts.ts";
    const run = (command) => Deno.permissions.querySync({ name: "run", command }).state[0];
    const env = (variable) => Deno.permissions.querySync({ name: "env", variable }).state[0];
    const state = () => ["ssh", "podman", "docker"].map(run).join("") + " " + env("DOCKER_HOST") + env("HOME");
    const before = state();
    dropUnusedLinkGrants([{ name: "b", destination: "box" }, { name: "c", destination: "docker://c", kind: "docker" }]);
    const kept = state();
    dropUnusedLinkGrants([{ name: "b", destination: "box" }]);
    const sshOnly = state();
    dropUnusedLinkGrants([]);
    let spawned = "spawned";
    try { new Deno.Command("ssh", { args: ["-V"] }).outputSync(); } catch (e) { spawned = e.name; }
    console.log(before, "|", kept, "|", sshOnly, "|", state(), spawned);`;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-run=tmux,ssh,podman,docker",
      "--allow-env=HOME,DOCKER_HOST,CONTAINER_HOST,DOCKER_CONTEXT",
      `--allow-read=${ROOT}`,
      file,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(file));
  const text = new TextDecoder().decode(out.stdout).trim();
  // (g)ranted or (p)rompt: ssh podman docker, then DOCKER_HOST and HOME.
  assert.equal(text, "ggg gg | gpg gg | gpp pg | ppp pg NotCapable", new TextDecoder().decode(out.stderr));
});

Deno.test("--help documents --host and --ssh-config with their variables", async () => {
  const { stdout } = await run(["--help"]);
  assert.match(stdout, /--host +NAME=DESTINATION.*\[TMUXWRIGHT_HOSTS\]/);
  assert.match(stdout, /--ssh-config .*ssh -F.*\[TMUXWRIGHT_SSH_CONFIG\]/);
});
