import { launchFlags } from "./permissions.ts";

/**
 * `deno task start` and `deno task bridge`: starts `deno run FLAGS main.ts ARGS` with the flags
 * computed from ARGS and the environment, and stands in for it (stdio, signals, exit status).
 * It may read the variables the flags depend on and run deno, nothing else (see deno.json).
 */
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Runs the server; resolves to its exit status (128 + N when a signal ended it). */
export async function launch(args: readonly string[]): Promise<number> {
  const flags = launchFlags(args, (name) => Deno.env.get(name));
  const child = new Deno.Command("deno", {
    args: ["run", ...flags, MAIN, ...args],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const forward = (signal: Deno.Signal) => () => {
    try {
      child.kill(signal);
    } catch { /* it has ended */ }
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) Deno.addSignalListener(signal, forward(signal));
  const status = await child.status;
  return status.signal ? 128 + SIGNAL_NUMBERS[status.signal as keyof typeof SIGNAL_NUMBERS] : status.code;
}

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as const;

if (import.meta.main) Deno.exit(await launch(Deno.args));
