/**
 * The server as the npm package ships it and `deno task start` runs it (scripts/pack.ts,
 * start_bundle.ts): DIR/server/, the server split into chunks, so that a start loads only what its
 * command needs (a stdio server never parses the HTTP server, the bridge, the terminal model, RE2
 * or the PNG renderer: each is a chunk imported on first use). docs/BENCHMARKS.md (Install) has the
 * figures. The command beside it (tmuxwright.sh) computes the flags itself and execs the entry.
 */

/** The server's entry chunk, under DIR/server/. */
export const SERVER_ENTRY = "main.js";

/** Bundles the checkout at `root` into `dir`/server (`dir` must not exist yet) with the runtime `deno`. */
export async function buildServerDir(deno: string, root: string, dir: string): Promise<void> {
  const out = await new Deno.Command(deno, {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--code-splitting",
      "--outdir",
      `${dir}/server`,
      `${root}/main.ts`,
    ],
    // The SDK's light build (no node:process, no ajv: its cfworker validator), the CPU of a start
    // back to what it was on the v1 SDK (docs/BENCHMARKS.md, Both MCP eras). Only the SDK's packages
    // have a `browser` condition among the server's dependencies.
    env: { DENO_CONDITIONS: "browser" },
    cwd: root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(out.stderr).trim()}`);
}
