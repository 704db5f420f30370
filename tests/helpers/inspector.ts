/**
 * The official MCP Inspector CLI (npm @modelcontextprotocol/inspector, `--cli` mode), installed on
 * first use from the npm registry into a cache directory outside the repository and reused after.
 * A failed install fails the test that needs it: nothing is skipped.
 */
const PACKAGE = "@modelcontextprotocol/inspector";
export const INSPECTOR_VERSION = "2.12.0";
const LAUNCHER = `node_modules/${PACKAGE}/clients/launcher/build/index.js`;

function cacheRoot(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${base}/tmuxwright-dev`;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Path of the Inspector's launcher script (run it with node), installing the package if needed. */
export async function inspectorLauncher(): Promise<string> {
  const dir = `${cacheRoot()}/inspector-${INSPECTOR_VERSION}`;
  if (await exists(`${dir}/${LAUNCHER}`)) return `${dir}/${LAUNCHER}`;
  await Deno.mkdir(cacheRoot(), { recursive: true });
  // Installed beside, then renamed into place: a concurrent run never sees half a tree.
  const staging = await Deno.makeTempDir({ dir: cacheRoot(), prefix: "inspector-install-" });
  try {
    await Deno.writeTextFile(`${staging}/package.json`, JSON.stringify({ private: true }));
    const npm = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--ignore-scripts", `${PACKAGE}@${INSPECTOR_VERSION}`],
      cwd: staging,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output().catch((error) => {
      throw new Error(`the MCP Inspector needs npm (installed with node): ${(error as Error).message}`);
    });
    if (!npm.success) {
      throw new Error(`npm install ${PACKAGE}@${INSPECTOR_VERSION} failed:\n${new TextDecoder().decode(npm.stderr)}`);
    }
    if (!await exists(`${staging}/${LAUNCHER}`)) throw new Error(`${PACKAGE} has no ${LAUNCHER}`);
    await Deno.rename(staging, dir).catch(async (error) => {
      if (!await exists(`${dir}/${LAUNCHER}`)) throw error; // else another run installed it first
    });
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  return `${dir}/${LAUNCHER}`;
}
