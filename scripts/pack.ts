/**
 * `deno task pack`: the npm package, dist/tmuxwright-<version>.tgz. It holds the server bundled in
 * chunks (server/, src/launcher/bundle.ts), the command (bin/tmuxwright: src/launcher/tmuxwright.sh,
 * which computes the permission flags and execs the server), the Node bin it
 * falls back to (bin/tmuxwright.cjs, from src/launcher/node_bin.ts), README.md and LICENSE; it
 * depends on exactly the Deno the project is tested with (the `deno` npm package). Name,
 * description and mcpName come from server.json. Prints the tarball's path; fails when it is
 * larger than the 6 MB the package may weigh.
 */
import { buildServerDir } from "../src/launcher/mod.ts";
import { DENO_VERSION, VERSION } from "../src/version.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const STAGE = `${ROOT}dist/package`;
const MAX_PACKED = 6_000_000;

/** The package.json the tarball carries (tests/package_test.ts checks it against server.json). */
export function manifest(server: { name: string; description: string; repository?: { url: string } }) {
  return {
    name: "tmuxwright",
    version: VERSION,
    description: server.description,
    mcpName: server.name,
    license: "MIT",
    ...(server.repository ? { repository: { type: "git", url: `git+${server.repository.url}.git` } } : {}),
    keywords: ["mcp", "mcp-server", "tmux", "terminal", "agents"],
    bin: { tmuxwright: "bin/tmuxwright" },
    files: ["bin/", "server/"],
    engines: { node: ">=20" },
    os: ["linux", "darwin"],
    dependencies: { deno: DENO_VERSION },
  };
}

async function run(command: string, args: string[], cwd = ROOT): Promise<string> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "inherit" }).output();
  if (!out.success) throw new Error(`${command} ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout);
}

export async function pack(): Promise<string> {
  const server = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`));
  await Deno.remove(STAGE, { recursive: true }).catch(() => {});
  await buildServerDir("deno", ROOT.replace(/\/$/, ""), STAGE);
  await Deno.mkdir(`${STAGE}/bin`, { recursive: true });
  const cjs = `${STAGE}/bin/tmuxwright.cjs`;
  await run("deno", [
    "bundle",
    "--quiet",
    "--platform",
    "deno",
    "--format",
    "cjs",
    "-o",
    cjs,
    "src/launcher/node_bin.ts",
  ]);
  await Deno.writeTextFile(cjs, `#!/usr/bin/env node\n${await Deno.readTextFile(cjs)}`);
  await Deno.copyFile(`${ROOT}src/launcher/tmuxwright.sh`, `${STAGE}/bin/tmuxwright`);
  for (const bin of [cjs, `${STAGE}/bin/tmuxwright`]) await Deno.chmod(bin, 0o755);
  for (const file of ["README.md", "LICENSE"]) await Deno.copyFile(`${ROOT}${file}`, `${STAGE}/${file}`);
  await Deno.writeTextFile(`${STAGE}/package.json`, JSON.stringify(manifest(server), null, 2) + "\n");
  const name = (await run("npm", ["pack", "--silent", "--pack-destination", `${ROOT}dist`], STAGE)).trim();
  const tarball = `dist/${name.split("\n").at(-1)}`;
  const size = (await Deno.stat(`${ROOT}${tarball}`)).size;
  if (size > MAX_PACKED) throw new Error(`${tarball} is ${size} bytes, over ${MAX_PACKED}`);
  return tarball;
}

if (import.meta.main) {
  try {
    console.log(await pack());
  } catch (error) {
    console.error(`pack: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
