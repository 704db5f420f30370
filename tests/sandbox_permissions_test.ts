import assert from "node:assert/strict";
import { cleanEnv, startPermissions, taskPermissions, TestServer, until } from "./helpers/harness.ts";
import { COMPILE_FLAGS } from "../scripts/compile.ts";
import { Client, StdioClientTransport } from "./helpers/sdk_client.ts";
import { descendants } from "./helpers/proc_tree.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const TASKS = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).tasks;

/** Runs a script with the start task's flags for no arguments and no extra variables (a `deno run` line by hand). */
async function runWithStartFlags(dir: string, script: string, args: string[], env: Record<string, string> = {}) {
  const fullEnv = cleanEnv(env);
  const out = await new Deno.Command("deno", {
    args: ["run", ...startPermissions(cleanEnv(), [dir]), `${ROOT}${script}`, ...args],
    env: fullEnv,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("the start task grants tmux, the state directory and the server's variables, nothing else", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const out = await runWithStartFlags(dir, "scripts/sandbox_probe.ts", [`${dir}/state`]);
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout);
    assert.deepEqual(result, {
      run_tmux: "allowed",
      run_sh: "NotCapable",
      run_bin_sh: "NotCapable",
      run_bash: "NotCapable",
      run_deno: "NotCapable",
      read_etc_passwd: "NotCapable",
      read_home_dir: "NotCapable",
      read_proc_self: "NotCapable",
      read_state_dir: "allowed",
      write_state_dir: "allowed",
      write_tmp: "NotCapable",
      read_traversal: "NotCapable",
      env_home: "allowed",
      env_tmuxwright: "allowed",
      env_path: "NotCapable",
      env_all: "NotCapable",
      listen_loopback: "allowed",
      listen_any: "NotCapable",
      net_other_host: "NotCapable",
      ffi: "NotCapable",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the start task grants exactly the state directory in use, whichever variable chose it", async () => {
  const home = "/tmp/tmuxwright-test-home";
  const homeState = `${home}/.local/state/tmuxwright`;
  const cases: [Record<string, string>, string, string[]][] = [
    [{}, homeState, []], // XDG_STATE_HOME unset: $HOME/.local/state/tmuxwright, never /tmuxwright
    [{ XDG_STATE_HOME: "" }, homeState, []],
    [{ XDG_STATE_HOME: "/tmp/tw-xdg" }, "/tmp/tw-xdg/tmuxwright", []],
    [{ XDG_STATE_HOME: "/tmp/tw-xdg", TMUXWRIGHT_STATE_DIR: "/tmp/tw-chosen" }, "/tmp/tw-chosen", []],
    // The flag wins over the variables, in both spellings; the last one counts, as for the server.
    [{ TMUXWRIGHT_STATE_DIR: "/tmp/tw-chosen" }, "/tmp/tw-flag", ["--keep", "--state-dir", "/tmp/tw-flag"]],
    [{}, "/tmp/tw-flag", ["--state-dir=/tmp/tw-chosen", "--state-dir=/tmp/tw-flag"]],
  ];
  const candidates = [homeState, "/tmuxwright", "/", "/tmp/tw-xdg/tmuxwright", "/tmp/tw-chosen", "/tmp/tw-flag", home];
  for (const [vars, expected, args] of cases) {
    const env = cleanEnv(vars);
    if (!("XDG_STATE_HOME" in vars)) delete env.XDG_STATE_HOME;
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(env, [], args), `${ROOT}scripts/sandbox_probe.ts`, expected, ...candidates],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const { paths } = JSON.parse(new TextDecoder().decode(out.stdout));
    const want = Object.fromEntries(candidates.map((p) => [p, p === expected ? "read+write" : "none"]));
    assert.deepEqual(paths, want, JSON.stringify([vars, args]));
  }
});

Deno.test("deno task start serves from the state directory the task granted, with or without XDG_STATE_HOME", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    for (const xdg of [null, `${dir}/xdg`]) {
      const home = `${dir}/home-${xdg === null ? "plain" : "xdg"}`;
      await Deno.mkdir(home);
      const env = cleanEnv({ HOME: home, ...(xdg === null ? {} : { XDG_STATE_HOME: xdg }) });
      if (xdg === null) delete env.XDG_STATE_HOME;
      const out = await new Deno.Command("deno", {
        args: ["task", "-q", "--config", `${ROOT}deno.json`, "start", "--socket-path", `${dir}/s`],
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const used = xdg === null ? `${home}/.local/state/tmuxwright` : `${xdg}/tmuxwright`;
      assert.ok((await Deno.stat(used)).isDirectory, used);
      if (xdg !== null) await assert.rejects(Deno.stat(`${home}/.local`), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the start task and the compiled binary share the run and env grants; start uses no blanket grant", () => {
  const start = startPermissions().filter((w) => w.startsWith("--allow-"));
  const compile = COMPILE_FLAGS.filter((w) => w.startsWith("--allow-"));
  assert.ok(start.includes("--allow-run=tmux"));
  // ssh, podman, docker only with hosts reached by them: start grants each when TMUXWRIGHT_HOSTS
  // (or --host) names one; a compiled binary bakes them all in and gives up at start-up those no
  // host uses (tests/hosts_config_test.ts), with the runtimes' variables.
  const withHosts = startPermissions({ ...cleanEnv(), TMUXWRIGHT_HOSTS: "build=build.example" });
  assert.ok(withHosts.includes("--allow-run=tmux,ssh"), withHosts.join(" "));
  assert.deepEqual(
    withHosts.find((f) => f.startsWith("--allow-env=")),
    start.find((f) => f.startsWith("--allow-env=")),
  );
  const withContainers = startPermissions({ ...cleanEnv(), TMUXWRIGHT_HOSTS: "a=docker://x,b=podman://y,c=ssh://c" });
  assert.ok(withContainers.includes("--allow-run=tmux,ssh,podman,docker"), withContainers.join(" "));
  assert.ok(compile.includes("--allow-run=tmux,ssh,podman,docker"));
  assert.deepEqual(
    withContainers.find((f) => f.startsWith("--allow-env=")),
    compile.find((f) => f.startsWith("--allow-env=")),
  );
  assert.ok(compile.find((f) => f.startsWith("--allow-env="))!.endsWith(",DOCKER_HOST,CONTAINER_HOST,DOCKER_CONTEXT"));
  for (
    const blanket of ["--allow-all", "-A", "--allow-run", "--allow-env", "--allow-read", "--allow-write", "--allow-net"]
  ) {
    assert.ok(!start.includes(blanket), `start grants ${blanket}`);
  }
  assert.ok(!start.some((f) => f.startsWith("--allow-ffi") || f.startsWith("--allow-sys")));
  // Networking: loopback addresses only, for --http and the bridge.
  const net = "--allow-net=127.0.0.1,[::1],localhost";
  assert.deepEqual(start.filter((f) => f.startsWith("--allow-net")), [net]);
  assert.deepEqual(compile.filter((f) => f.startsWith("--allow-net")), [net]);
  // What a compiled binary cannot scope (files: the state directory is chosen per run) is unscoped, and said so.
  assert.deepEqual(compile.filter((f) => /^--allow-(read|write)/.test(f)), ["--allow-read", "--allow-write"]);
  assert.match(TASKS.compile, /scripts\/compile\.ts$/);
});

Deno.test("every environment variable the server reads is in the --allow-env list", async () => {
  const allowed = startPermissions().find((f) => f.startsWith("--allow-env="))!.slice(12).split(",");
  const permitted = (name: string) =>
    allowed.some((a: string) => (a.endsWith("*") ? name.startsWith(a.slice(0, -1)) : a === name));
  const read = new Set<string>();
  for await (const file of walk(`${ROOT}src`)) {
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(/(?:envValue|Deno\.env\.get)\(\s*"([A-Z0-9_]+)"/g)) read.add(m[1]);
    for (const m of text.matchAll(/\benv:\s*"([A-Z0-9_]+)"/g)) read.add(m[1]); // the FLAGS table
  }
  assert.ok(read.has("TMUX") && read.has("TMUXWRIGHT_SAFETY") && read.has("TMUX_DEBUG_AUDIT"), [...read].join());
  assert.deepEqual([...read].filter((name) => !permitted(name)), []);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (path.endsWith(".ts")) yield path;
  }
}

Deno.test("an audit path outside the granted set fails at start-up naming the flag to add", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const outside = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-outside" });
  try {
    const args = ["--state-dir", `${dir}/state`, "--socket-path", `${dir}/s`];
    const audit = await runWithStartFlags(dir, "main.ts", [...args, "--audit", `${outside}/audit.log`]);
    assert.equal(audit.code, 2, audit.stderr);
    assert.match(
      audit.stderr,
      new RegExp(`Cannot use --audit "${outside}/audit.log": .*--allow-write=${outside}/audit.log`),
    );
    const full = await runWithStartFlags(dir, "main.ts", args, { TMUX_DEBUG_AUDIT_FULL: `${outside}/captures` });
    assert.equal(full.code, 2, full.stderr);
    assert.match(full.stderr, /Cannot use --audit-full ".*captures": the Deno permissions do not allow write access/);
    const state = await runWithStartFlags(dir, "main.ts", ["--state-dir", `${outside}/state`]);
    assert.equal(state.code, 2, state.stderr);
    assert.match(state.stderr, /--allow-write=.*--allow-read=/);
    await assert.rejects(Deno.stat(`${outside}/audit.log`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("the sandboxed server works: cwd checks need no read access outside the state directory", async () => {
  await using server = await TestServer.start();
  const error = await server.callError("create_pane", { cwd: "/nonexistent-tw-dir" });
  assert.match(error, /^INVALID_ARGUMENT: Invalid cwd "\/nonexistent-tw-dir": directory does not exist/);
  assert.match(await server.callError("create_pane", { cwd: "/etc/hostname" }), /not a directory/);
  const pane = await server.call<{ pane_id: string }>("create_pane", { cwd: "/etc", command: "pwd; cat" });
  const cwd = async () =>
    (await server.call<{ panes: { pane_id: string; cwd: string }[] }>("list_panes")).panes
      .find((p) => p.pane_id === pane.pane_id)?.cwd;
  await until(cwd, (dir) => dir === "/etc");
});

Deno.test("the bridge task is the start task plus its socket directory and the bridge command", () => {
  for (const user of ["alice", ""]) {
    const env = cleanEnv({ USER: user });
    const start = taskPermissions("start", env).flags;
    const bridge = taskPermissions("bridge", env);
    // The socket directory the bridge uses: /tmp/tmuxwright-bridge-$USER, "user" when USER is unset or empty.
    const socketDir = `/tmp/tmuxwright-bridge-${user || "user"}`;
    for (const flag of bridge.flags) {
      if (/^--allow-(read|write)=/.test(flag)) {
        assert.equal(flag, `${start.find((f) => f.startsWith(flag.slice(0, flag.indexOf("=") + 1)))},${socketDir}`);
      } else {
        assert.ok(start.includes(flag), `bridge adds ${flag}`);
      }
    }
    assert.equal(bridge.flags.length, start.length);
    assert.deepEqual(bridge.args, ["bridge"]);
  }
});

Deno.test("every variable the bridge reads is in the --allow-env list", async () => {
  const allowed = taskPermissions("bridge").flags.find((f) => f.startsWith("--allow-env="))!.slice(12).split(",");
  const permitted = (name: string) =>
    allowed.some((a: string) => (a.endsWith("*") ? name.startsWith(a.slice(0, -1)) : a === name));
  const text = await Deno.readTextFile(`${ROOT}src/transports/bridge.ts`);
  const names = [...text.slice(text.indexOf("ENV_NAMES")).matchAll(/^\s+"([A-Z0-9_]+)",$/gm)].map((m) => m[1]);
  assert.ok(names.includes("TMUX_BRIDGE_TOKEN") && names.includes("PORT"), names.join());
  assert.deepEqual(names.filter((name) => !permitted(name)), []);
});

Deno.test("the start task's --http binds loopback; another address is refused naming the deno flag", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const args = ["--state-dir", `${dir}/state`, "--socket-path", `${dir}/s`];
    const remote = await runWithStartFlags(dir, "main.ts", [...args, "--http", "0.0.0.0:0", "--allow-remote"], {
      TMUX_BRIDGE_TOKEN: "t",
    });
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(remote.stderr, /Cannot listen on 0\.0\.0\.0:0: .*--allow-net=0\.0\.0\.0:0/);
    const noRemote = await runWithStartFlags(dir, "main.ts", [...args, "--http", "0.0.0.0:0"]);
    assert.equal(noRemote.code, 2, noRemote.stderr);
    assert.match(noRemote.stderr, /Cannot listen on "0\.0\.0\.0": only loopback addresses/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the launcher grants the audit paths, TLS files and policy file asked for, and nothing unasked", () => {
  const env = cleanEnv({ TMUXWRIGHT_STATE_DIR: "/tmp/tw-state" });
  const grants = (args: string[], vars: Record<string, string> = {}) => {
    const flags = startPermissions({ ...env, ...vars }, [], args);
    const list = (name: string) => flags.find((f) => f.startsWith(`--allow-${name}=`))!.split("=")[1].split(",");
    return { read: list("read"), write: list("write") };
  };
  assert.deepEqual(grants([]), { read: ["/tmp/tw-state"], write: ["/tmp/tw-state"] });
  // The audit file's directory (created when missing), --audit-full's directory; inside the state directory: nothing more.
  assert.deepEqual(grants(["--audit", "/var/log/tw/audit.jsonl", "--audit-full=/var/tmp/caps"]).write, [
    "/tmp/tw-state",
    "/var/log/tw",
    "/var/tmp/caps",
  ]);
  assert.deepEqual(grants([], { TMUX_DEBUG_AUDIT: "/var/log/tw/a.jsonl" }).write, ["/tmp/tw-state", "/var/log/tw"]);
  assert.deepEqual(grants(["--audit", "/tmp/tw-state/audit.jsonl"]).write, ["/tmp/tw-state"]);
  // Files only read: TLS certificate and key, the policy file (flag or variable).
  assert.deepEqual(grants(["--http", "8080", "--tls-cert", "/etc/tw/c.pem", "--tls-key=/etc/tw/k.pem"]).read, [
    "/tmp/tw-state",
    "/etc/tw/c.pem",
    "/etc/tw/k.pem",
  ]);
  assert.deepEqual(grants(["--policy", "/etc/tw/policy.yml"]), {
    read: ["/tmp/tw-state", "/etc/tw/policy.yml"],
    write: ["/tmp/tw-state"],
  });
  assert.deepEqual(grants([], { TMUXWRIGHT_POLICY: "/etc/tw/p.yml" }).read, ["/tmp/tw-state", "/etc/tw/p.yml"]);
  // The bridge reads none of the server's flags: the state directory, its socket directory, its TLS files.
  const bridge = taskPermissions("bridge", { ...env, USER: "al" }, [], ["--audit", "/var/log/x", "--tls-cert=/c.pem"]);
  assert.ok(bridge.flags.includes("--allow-write=/tmp/tw-state,/tmp/tmuxwright-bridge-al"), bridge.flags.join(" "));
  assert.ok(
    bridge.flags.includes("--allow-read=/tmp/tw-state,/tmp/tmuxwright-bridge-al,/c.pem"),
    bridge.flags.join(" "),
  );
});

Deno.test("with the launcher's grants, an audit file outside the state directory is written", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const outside = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-outside" });
  try {
    const args = ["--state-dir", `${dir}/state`, "--socket-path", `${dir}/s`, "--audit", `${outside}/new/audit.jsonl`];
    const env = cleanEnv();
    const out = await new Deno.Command("deno", {
      args: ["run", ...startPermissions(env, [], args), `${ROOT}main.ts`, ...args],
      env,
      stdin: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.ok((await Deno.stat(`${outside}/new`)).isDirectory);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("deno task start execs the server with exactly the flags the launcher computes", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const args = ["--state-dir", `${dir}/state`, "--socket-path", `${dir}/s`, "--host", "build=build.example"];
    const env = cleanEnv();
    const transport = new StdioClientTransport({
      command: "deno",
      args: ["task", "-q", "--config", `${ROOT}deno.json`, "start", ...args],
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "tmuxwright-tests", version: "0.0.0" });
    await client.connect(transport);
    try {
      // The task's one child is the server itself: the launcher exec'd it.
      const [server, ...more] = descendants(transport.pid!).filter(({ argv }) => !argv[0].endsWith("tmux"));
      assert.deepEqual(more, [], JSON.stringify(descendants(transport.pid!)));
      assert.deepEqual(server.argv.slice(1), [
        "run",
        "--no-config",
        ...startPermissions(env, [], args),
        `${ROOT}dist/start/server/main.js`,
        ...args,
      ]);
      assert.ok(server.argv.includes("--allow-run=tmux,ssh") && server.argv.includes(`--allow-read=${dir}/state`));
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "execute_command"));
    } finally {
      await client.close();
      await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task start: the server's exit status, and SIGTERM to the task reaches the server", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    const env = cleanEnv({ TMUXWRIGHT_STATE_DIR: `${dir}/state` });
    const task = (...args: string[]) =>
      new Deno.Command("deno", {
        args: ["task", "-q", "--config", `${ROOT}deno.json`, "start", "--socket-path", `${dir}/s`, ...args],
        env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    const bad = task("--safety", "reckless");
    await bad.stdin.close();
    const out = await bad.output();
    assert.equal(out.code, 2);
    assert.match(new TextDecoder().decode(out.stderr), /Invalid --safety "reckless"/);

    const serving = task();
    // Once the server answers, it handles SIGTERM (before, the default action would end it).
    const writer = serving.stdin.getWriter();
    await writer.write(new TextEncoder().encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }) + "\n",
    ));
    const reader = serving.stdout.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /"id":1/);
    reader.releaseLock();
    serving.kill("SIGTERM");
    const status = await serving.status;
    await writer.close().catch(() => {}); // a server left behind ends at EOF, not after the test
    await serving.stdout.cancel();
    const stderr = await new Response(serving.stderr).text();
    assert.equal(status.code, 0, stderr);
    assert.match(stderr, /stopping: SIGTERM/);
  } finally {
    await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output();
    await Deno.remove(dir, { recursive: true });
  }
});
