/**
 * The launcher: how tmuxwright is started under least-privilege Deno permissions. One set of rules
 * for the `deno run` flags (permissions.ts) serves the tmuxwright command (tmuxwright.sh, which
 * computes them in sh, proven equal by tests/launcher_test.ts, and execs the server), `deno task
 * start` and `deno task bridge` (the same script), and the Node bin the npm package falls back to
 * (node_bin.ts).
 */
export {
  ENV_NAMES,
  type EnvLookup,
  launchCommand,
  LAUNCHER_ENV,
  launchFlags,
  NET_HOSTS,
  RUNTIME_FLAGS,
} from "./permissions.ts";
export { findDeno } from "./runtime.ts";
export { buildServerDir, SERVER_ENTRY } from "./bundle.ts";
export { freshStartBundle, sourcesFingerprint } from "./start_bundle.ts";
