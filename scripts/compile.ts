/**
 * `deno task compile [--target TRIPLE]...`: single executables built with `deno compile`, each with
 * a `.sha256` file beside it. Their grants come from the launcher's lists (src/launcher/), except
 * what a compiled binary cannot scope, because `deno compile` fixes the grants at build time:
 *
 * - files: `--allow-read --allow-write` without paths. The state directory is chosen per user and
 *   per run (--state-dir, TMUXWRIGHT_STATE_DIR, XDG_STATE_HOME, HOME), which the build machine
 *   cannot know; the server checks its own paths (snapshot files, the state directory) itself.
 * - programs: `--allow-run=tmux,ssh,podman,docker`, and the variables a container runtime gets
 *   (DOCKER_HOST, CONTAINER_HOST, DOCKER_CONTEXT). Each program is needed only by hosts reached
 *   with it; the server revokes at start-up every one no configured host uses, and the variables
 *   when no container is configured (main.ts, dropUnusedLinkGrants).
 *
 * For file confinement run the npm package or `deno task start`, whose flags are computed per run.
 * `deno compile` downloads Deno's runtime for each target: machines that cannot reach Deno's
 * download host cannot build these.
 */
import { ENV_NAMES, NET_HOSTS, RUNTIME_FLAGS } from "../src/launcher/mod.ts";
import { RUNTIME_ENV } from "../src/tmux/link_command.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The permissions baked into every compiled binary (tests/sandbox_permissions_test.ts compares them to the launcher's). */
export const COMPILE_FLAGS = [
  ...RUNTIME_FLAGS.filter((flag) => flag !== "--quiet"),
  "--allow-run=tmux,ssh,podman,docker",
  `--allow-env=${[...ENV_NAMES, ...RUNTIME_ENV].join(",")}`,
  "--allow-read",
  "--allow-write",
  `--allow-net=${NET_HOSTS.join(",")}`,
] as const;

/** The targets the release builds (`deno compile --target`). */
export const RELEASE_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
] as const;

async function compile(target: string | null): Promise<string> {
  const out = `dist/tmuxwright${target ? `-${target}` : ""}`;
  const built = await new Deno.Command("deno", {
    args: [
      "compile",
      ...COMPILE_FLAGS,
      "--exclude-unused-npm",
      ...(target ? ["--target", target] : []),
      "-o",
      out,
      "main.ts",
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!built.success) throw new Error(`deno compile ${target ?? "(this machine)"} failed (see above)`);
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${ROOT}${out}`));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const name = out.slice("dist/".length);
  await Deno.writeTextFile(`${ROOT}${out}.sha256`, `${hex}  ${name}\n`);
  return out;
}

if (import.meta.main) {
  const targets = Deno.args.includes("--release")
    ? [...RELEASE_TARGETS]
    : Deno.args.flatMap((arg, i) => Deno.args[i - 1] === "--target" ? [arg] : []);
  try {
    for (const target of targets.length > 0 ? targets : [null]) console.log(await compile(target));
  } catch (error) {
    console.error(
      `compile: ${
        (error as Error).message
      }; deno compile downloads the runtime (denort) of each target from Deno's download host`,
    );
    Deno.exit(1);
  }
}
