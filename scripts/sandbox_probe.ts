/**
 * Run with the exact permission flags of `deno task start` (tests/sandbox_permissions_test.ts does)
 * to see what the server process may and may not do. Prints one JSON object: each probe → "allowed"
 * or the error class that stopped it.
 *
 *   deno run <start flags> scripts/sandbox_probe.ts STATE_DIR [PATH...]
 *
 * With PATHs, only reports which of read and write each PATH is granted (`paths`), nothing else.
 */
const stateDir = Deno.args[0] ?? `${Deno.env.get("HOME")}/.local/state/tmuxwright`;

if (Deno.args.length > 1) {
  const granted = (name: "read" | "write", path: string) =>
    Deno.permissions.querySync({ name, path }).state === "granted" ? [name] : [];
  const paths = Object.fromEntries(
    Deno.args.slice(1).map((path) => [path, [...granted("read", path), ...granted("write", path)].join("+") || "none"]),
  );
  console.log(JSON.stringify({ paths }));
  Deno.exit(0);
}

async function probe(action: () => unknown): Promise<string> {
  try {
    await action();
    return "allowed";
  } catch (error) {
    return (error as Error).constructor.name; // NotCapable when the sandbox refused
  }
}

const spawn = (program: string) => () => new Deno.Command(program, { args: ["-c", "true"], stdout: "null" }).output();

const results: Record<string, string> = {
  run_tmux: await probe(() => new Deno.Command("tmux", { args: ["-V"], stdout: "null" }).output()),
  run_sh: await probe(spawn("sh")),
  run_bin_sh: await probe(spawn("/bin/sh")),
  run_bash: await probe(spawn("bash")),
  run_deno: await probe(() => new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).output()),
  read_etc_passwd: await probe(() => Deno.readTextFile("/etc/passwd")),
  read_home_dir: await probe(() => Deno.readDir(Deno.env.get("HOME") ?? "/root")[Symbol.asyncIterator]().next()),
  // Deno allows /proc only with --allow-all, whatever --allow-read says (docs/SECURITY.md).
  read_proc_self: await probe(() => Deno.readTextFile(`/proc/${Deno.pid}/stat`)),
  read_state_dir: await probe(async () => {
    await Deno.mkdir(stateDir, { recursive: true });
    await Deno.readDir(stateDir)[Symbol.asyncIterator]().next();
  }),
  write_state_dir: await probe(() => Deno.writeTextFile(`${stateDir}/.probe`, "ok")),
  write_tmp: await probe(() => Deno.writeTextFile(`/tmp/tw-sandbox-probe-${Deno.pid}`, "x")),
  read_traversal: await probe(() => Deno.readTextFile(`${stateDir}/../../../../../etc/passwd`)),
  env_home: await probe(() => Deno.env.get("HOME")),
  env_tmuxwright: await probe(() => Deno.env.get("TMUXWRIGHT_ANYTHING")),
  env_path: await probe(() => Deno.env.get("PATH")),
  env_all: await probe(() => Deno.env.toObject()),
  listen_loopback: await probe(() => Deno.listen({ hostname: "127.0.0.1", port: 0 }).close()),
  listen_any: await probe(() => Deno.listen({ hostname: "0.0.0.0", port: 0 }).close()),
  // Asked, not tried: no traffic leaves the machine.
  net_other_host: await probe(() => {
    if (Deno.permissions.querySync({ name: "net", host: "example.com:443" }).state !== "granted") {
      throw new Deno.errors.NotCapable("net");
    }
  }),
  ffi: await probe(() => Deno.dlopen("libc.so.6", {})),
};
await Deno.remove(`${stateDir}/.probe`).catch(() => {});
console.log(JSON.stringify(results));
