/**
 * The launcher and the server as the npm package ships them and `deno task start` runs them
 * (scripts/pack.ts, start_bundle.ts): DIR/launch.js (launch.ts in one file) beside DIR/server/,
 * the server split into chunks, so that a start loads only what its command needs (a stdio server
 * never parses the HTTP server, the bridge, the terminal model, RE2 or the PNG renderer: each is a
 * chunk imported on first use). docs/BENCHMARKS.md (Install) has the figures.
 */

/** The server's entry chunk, under DIR/server/. */
export const SERVER_ENTRY = "main.js";

/** Bundles the checkout at `root` into `dir` (which must not exist yet) with the runtime `deno`. */
export async function buildLaunchDir(deno: string, root: string, dir: string): Promise<void> {
  const steps = [
    ["--code-splitting", "--outdir", `${dir}/server`, `${root}/main.ts`],
    ["-o", `${dir}/launch.js`, `${root}/src/launcher/launch.ts`],
  ];
  for (const step of steps) {
    const out = await new Deno.Command(deno, {
      args: ["bundle", "--quiet", "--platform", "deno", ...step],
      cwd: root,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}
