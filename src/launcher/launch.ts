import { launchFlags } from "./permissions.ts";
import { SERVER_ENTRY } from "./bundle.ts";

/**
 * The first half of the tmuxwright command (tmuxwright.sh runs it on the runtime it found): prints
 * the `deno` arguments that start the server for ARGS, one per line: `run`, the least-privilege
 * flags of permissions.ts for ARGS and this environment, and the server's entry. The shell then
 * execs `deno` with them and ARGS, so the server replaces the launcher (no process stays behind
 * it). In the npm package (launch.js) the entry is the bundle beside it; in a checkout it is the
 * fresh bundle of `deno task start` (start_bundle.ts), or main.ts where none can be built.
 */
export async function serverArgv(args: readonly string[], env: (name: string) => string | undefined) {
  const flags = launchFlags(args, env);
  const here = new URL(".", import.meta.url).pathname;
  if (import.meta.url.endsWith(".js")) return ["run", "--no-config", ...flags, `${here}server/${SERVER_ENTRY}`];
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  const deno = env("TMUXWRIGHT_LAUNCH_DENO");
  const { freshStartBundle } = await import("./start_bundle.ts");
  const bundle = deno ? await freshStartBundle(root, deno) : null;
  if (bundle) return ["run", "--no-config", ...flags, bundle];
  return ["run", "--config", `${root}/deno.json`, ...flags, `${root}/main.ts`];
}

if (import.meta.main) {
  const argv = await serverArgv(Deno.args, (name) => Deno.env.get(name));
  const bad = argv.find((word) => word.includes("\n"));
  if (bad !== undefined) {
    console.error(`tmuxwright: Cannot start with a path that contains a line break: ${JSON.stringify(bad)}`);
    Deno.exit(2);
  }
  await Deno.stdout.write(new TextEncoder().encode(argv.join("\n")));
}
