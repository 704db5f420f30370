import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layout rules of docs/README.md, checked on the real source: engine rooms are entered only
 * through their door (`mod.ts`), the import graph has no cycles (files, and engine rooms), and
 * no module keeps mutable state or reaches into the SDK's private fields.
 */
const SRC = resolve(new URL("../src", import.meta.url).pathname);
const ENGINE = join(SRC, "engine");

async function sources(dir = SRC): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sources(path));
    else if (path.endsWith(".ts")) files.push(path);
  }
  return files.sort();
}

/** Relative imports and re-exports of a file, static and dynamic, type-only included. */
function imports(file: string, text: string): string[] {
  const specs = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specs.map((spec) => resolve(dirname(file), spec));
}

function room(file: string): string | null {
  const rel = relative(ENGINE, file);
  if (rel.startsWith("..")) return null;
  const parts = rel.split("/");
  return parts.length > 1 ? parts[0] : null;
}

const graph = new Map<string, string[]>();
const texts = new Map<string, string>();
for (const file of await sources()) {
  const text = await Deno.readTextFile(file);
  texts.set(file, text);
  graph.set(file, imports(file, text));
}
const rel = (file: string) => relative(SRC, file);

function findCycle(edges: Map<string, string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "open");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

Deno.test("every import resolves to a file that exists", () => {
  const missing = [...graph].flatMap(([file, deps]) =>
    deps.filter((d) => !graph.has(d)).map((d) => `${rel(file)} → ${d}`)
  );
  assert.deepEqual(missing, []);
});

Deno.test("engine rooms are entered only through their door (mod.ts)", () => {
  const violations: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      const target = room(dep);
      if (target !== null && target !== room(file) && !dep.endsWith(`/${target}/mod.ts`)) {
        violations.push(`${rel(file)} imports ${rel(dep)}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

Deno.test("the import graph has no cycles, between files or between engine rooms", () => {
  const cycle = findCycle(graph);
  assert.equal(cycle, null, `file cycle: ${cycle?.map(rel).join(" → ")}`);
  const rooms = new Map<string, string[]>();
  for (const [file, deps] of graph) {
    const from = room(file);
    if (from === null) continue;
    const to = deps.map(room).filter((r): r is string => r !== null && r !== from);
    rooms.set(from, [...new Set([...(rooms.get(from) ?? []), ...to])]);
  }
  const roomCycle = findCycle(rooms);
  assert.equal(roomCycle, null, `room cycle: ${roomCycle?.join(" → ")}`);
});

Deno.test("no module-level mutable state and no SDK private fields", () => {
  const problems: string[] = [];
  for (const [file, text] of texts) {
    for (const line of text.split("\n")) {
      if (/^(export )?let /.test(line)) problems.push(`${rel(file)}: ${line.trim()}`);
      if (/^(export )?const \w+ = new (Map|Set|WeakMap|WeakSet)(<.*>)?\(\)/.test(line)) {
        problems.push(`${rel(file)}: ${line.trim()}`);
      }
      // `_meta` is a field of the MCP protocol itself; any other `._name` reaches into an object's internals.
      if (/\.\_(?!meta\b)[A-Za-z]\w*/.test(line.replace(/\/\/.*$/, ""))) problems.push(`${rel(file)}: ${line.trim()}`);
    }
  }
  assert.deepEqual(problems, []);
});
