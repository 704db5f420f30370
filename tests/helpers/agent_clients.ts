/**
 * The three agent CLIs the client tests drive (tests/clients_*_test.ts), pinned, installed from the
 * npm registry once into a cache directory outside the repository (.ci/run runs this module to do
 * it before the tests; a test that finds them missing installs them the same way), and the npm
 * package of this checkout installed as a user installs it. A failed install fails the test that
 * needs it: nothing is skipped.
 */
import { pack } from "../../scripts/pack.ts";

/** The versions tested (docs/install.md names them). */
export const CLIENTS = {
  claude: { package: "@anthropic-ai/claude-code", version: "2.1.328" },
  codex: { package: "@openai/codex", version: "0.169.0" },
  gemini: { package: "@google/gemini-cli", version: "0.61.0" },
} as const;
export type ClientName = keyof typeof CLIENTS;

const ROOT = new URL("../../", import.meta.url).pathname;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function cacheRoot(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${base}/tmuxwright-dev`;
}

/** One directory per set of versions: a new pin installs beside the old one. */
function clientsDir(): string {
  const tag = Object.values(CLIENTS).map((c) => `${c.package.split("/")[1]}-${c.version}`).join("_");
  return `${cacheRoot()}/agent-clients/${tag}`;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function run(command: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(command, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`${command} ${args.join(" ")} failed:\n${text(out.stderr)}${text(out.stdout)}`);
}

/** The directory whose node_modules/.bin holds claude, codex and gemini, installing them if needed. */
export async function agentClients(): Promise<string> {
  const dir = clientsDir();
  const ready = `${dir}/.installed`;
  if (await exists(ready)) return dir;
  await Deno.mkdir(`${cacheRoot()}/agent-clients`, { recursive: true });
  // Installed beside, then renamed into place: a concurrent run never sees half a tree.
  const staging = await Deno.makeTempDir({ dir: `${cacheRoot()}/agent-clients`, prefix: "install-" });
  try {
    await Deno.writeTextFile(`${staging}/package.json`, JSON.stringify({ private: true }));
    const specs = Object.values(CLIENTS).map((c) => `${c.package}@${c.version}`);
    // Install scripts off, as npm may run it; Claude Code's native binary is copied into place by
    // its postinstall script, run here explicitly.
    await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...specs], staging);
    await run("node", ["install.cjs"], `${staging}/node_modules/${CLIENTS.claude.package}`);
    for (const name of Object.keys(CLIENTS)) {
      if (!await exists(`${staging}/node_modules/.bin/${name}`)) throw new Error(`npm installed no ${name} command`);
    }
    await Deno.writeTextFile(`${staging}/.installed`, specs.join("\n") + "\n");
    await Deno.rename(staging, dir).catch(async (error) => {
      if (!await exists(ready)) throw error; // else another run installed them first
    });
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  return dir;
}

/** A client's command (node_modules/.bin/NAME). */
export async function clientCommand(name: ClientName): Promise<string> {
  return `${await agentClients()}/node_modules/.bin/${name}`;
}

/**
 * This checkout's npm package (`deno task pack`) installed with `npm install -g --prefix` into
 * `prefix`, as docs/install.md says; returns the directory holding the `tmuxwright` command.
 */
export async function installPackage(prefix: string): Promise<string> {
  const tarball = `${ROOT}${await pack()}`;
  await run("npm", ["install", "-g", "--no-audit", "--no-fund", "--prefix", prefix, tarball], ROOT);
  return `${prefix}/bin`;
}

if (import.meta.main) console.log(await agentClients());
