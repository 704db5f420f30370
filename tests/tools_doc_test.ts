import assert from "node:assert/strict";
import { formattedToolsDoc, TOOLS_DOC } from "../scripts/docs.ts";
import { ALL_TOOLS } from "../src/mcp/tools/mod.ts";
import { renderToolSchemas, TOOL_SCHEMAS } from "../scripts/gen_tool_schemas.ts";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("docs/TOOLS.md is what deno task docs generates from the tool definitions", async () => {
  const current = await Deno.readTextFile(TOOLS_DOC).catch(() => "");
  assert.ok(current === await formattedToolsDoc(), "docs/TOOLS.md is stale: run deno task docs");
  for (const tool of ALL_TOOLS) assert.ok(current.includes(`\n## ${tool.name}\n`), tool.name);
});

Deno.test("src/mcp/tool_schemas.ts is what deno task docs generates from the tool definitions", async () => {
  const current = await Deno.readTextFile(TOOL_SCHEMAS).catch(() => "");
  assert.ok(current === await renderToolSchemas(), "src/mcp/tool_schemas.ts is stale: run deno task docs");
});

Deno.test("the README and the docs link only to files in the repository", async () => {
  const documents = ["README.md", ...await markdownUnder("docs"), ...await markdownUnder("src")];
  const broken: string[] = [];
  for (const document of documents) {
    const text = await Deno.readTextFile(`${ROOT}${document}`);
    if (/\.\.\/shared\/|shared\/docs\//.test(text)) broken.push(`${document}: mentions shared/docs`);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const path = new URL(target.split("#")[0], `file://${ROOT}${document}`).pathname;
      const anchor = target.split("#")[1];
      if (!path.startsWith(ROOT)) broken.push(`${document}: ${target} is outside the repository`);
      else if (!await exists(path)) broken.push(`${document}: ${target} does not exist`);
      else if (anchor && path.endsWith(".md") && !(await headingAnchors(path)).includes(anchor)) {
        broken.push(`${document}: ${target}: no such heading`);
      }
    }
    // Paths named in code spans too: `src/engine/exec/README.md`, `scripts/bench_wait.ts`.
    for (const [, path] of text.matchAll(/`((?:docs|src|scripts|tests)\/[\w./-]+\.(?:md|ts))`/g)) {
      if (!await exists(`${ROOT}${path}`)) broken.push(`${document}: ${path} does not exist`);
    }
  }
  assert.deepEqual(broken, []);
});

async function markdownUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await markdownUnder(path));
    else if (entry.name.endsWith(".md")) found.push(path);
  }
  return found;
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
async function headingAnchors(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
    title.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replaceAll(" ", "-")
  );
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
