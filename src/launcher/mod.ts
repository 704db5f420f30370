/**
 * The launcher: how tmuxwright is started under least-privilege Deno permissions. One computation
 * of the `deno run` flags (permissions.ts) serves `deno task start`, `deno task bridge`
 * (deno_task.ts) and the npm package's bin (node_bin.ts, run by Node).
 */
export { ENV_NAMES, type EnvLookup, launchCommand, launchFlags, NET_HOSTS, RUNTIME_FLAGS } from "./permissions.ts";
export { findDeno } from "./runtime.ts";
