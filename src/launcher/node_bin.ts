import { spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { launchFlags } from "./permissions.ts";
import { findDeno } from "./runtime.ts";
import { SERVER_ENTRY } from "./bundle.ts";

/**
 * The npm package's `tmuxwright` command where its shell bin (tmuxwright.sh) finds no runtime in
 * node_modules, run by Node: `deno run --no-config FLAGS server/main.js ARGS` with the flags of
 * permissions.ts, on the Deno runtime Node resolves (or a deno on PATH of exactly the pinned
 * version). Node cannot exec, so it stands in for the server: stdio is inherited, signals are
 * passed on, its exit status is the server's. Built by scripts/pack.ts into bin/tmuxwright.cjs.
 */
function main(): void {
  // The bin is reached through npm's symlink; the package's files lie beside its real path.
  const packageDir = dirname(dirname(realpathSync(process.argv[1])));
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const args = process.argv.slice(2);
  let deno: string;
  try {
    deno = findDeno(join(packageDir, "package.json"), manifest.dependencies.deno);
  } catch (error) {
    console.error(`tmuxwright: ${(error as Error).message}`);
    process.exit(2);
  }
  const flags = launchFlags(args, (name) => process.env[name]);
  const child = spawn(deno, ["run", "--no-config", ...flags, join(packageDir, "server", SERVER_ENTRY), ...args], {
    stdio: "inherit",
    // The runtime is pinned by the package: its upgrade notice would only be noise.
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    console.error(`tmuxwright: cannot start ${deno}: ${error.message}`);
    process.exit(2);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (SIGNAL_NUMBERS[signal as string] ?? 0)));
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

main();
