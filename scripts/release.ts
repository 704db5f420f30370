/**
 * `deno task release STEP`: the steps of .github/workflows/release.yml that are not plain tasks,
 * each runnable here (`npm --dry-run` included) so the workflow is tried before a tag is pushed.
 *
 *   check TAG          the tag is v<version>, and server.json, deno.json and src/version.ts agree
 *   npm [--dry-run]    pack, then npm publish the tarball (public; with provenance in CI)
 *   registry           publish server.json to the MCP Registry with mcp-publisher (installed by the workflow)
 */
import { VERSION } from "../src/version.ts";
import { pack } from "./pack.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function run(command: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(command, { args, cwd: ROOT, stdout: "inherit", stderr: "inherit" }).output();
  if (!out.success) throw new Error(`${command} ${args.join(" ")} failed`);
}

async function check(tag: string | undefined): Promise<void> {
  const server = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`));
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const versions = { tag: tag?.replace(/^refs\/tags\//, ""), "deno.json": `v${config.version}` };
  const found = {
    ...versions,
    "server.json": `v${server.version}`,
    "server.json package": `v${server.packages[0].version}`,
  };
  const wrong = Object.entries(found).filter(([, v]) => v !== `v${VERSION}`);
  if (wrong.length > 0) {
    throw new Error(
      `version v${VERSION} (src/version.ts) differs from ${wrong.map(([k, v]) => `${k} ${v}`).join(", ")}`,
    );
  }
}

async function main(step: string | undefined, args: string[]): Promise<void> {
  switch (step) {
    case "check":
      return await check(args[0] ?? Deno.env.get("GITHUB_REF_NAME"));
    case "npm": {
      const tarball = await pack();
      const ci = Deno.env.get("CI") === "true" && Deno.env.get("GITHUB_ACTIONS") === "true";
      return await run("npm", [
        "publish",
        `./${tarball}`, // a path, not a name npm would resolve
        "--access",
        "public",
        ...(ci ? ["--provenance"] : []),
        ...(args.includes("--dry-run") ? ["--dry-run"] : []),
      ]);
    }
    case "registry":
      await check(undefined).catch(() => {}); // versions were checked by the first step
      return await run("mcp-publisher", ["publish", "server.json"]);
    default:
      throw new Error(`unknown step "${step ?? ""}": check TAG | npm [--dry-run] | registry`);
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args[0], Deno.args.slice(1));
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
