import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { CallToolResultSchema } from "./helpers/sdk_client.ts";
import type { JsonSchema } from "./helpers/tool_schemas.ts";

const CALLS = Number(Deno.env.get("FUZZ_CALLS") ?? 2000);
const SEED = Number(Deno.env.get("FUZZ_SEED") ?? Date.now() % 2 ** 31);
const BATCH = 25;
/**
 * The only protocol error a tools/call may produce (docs/SECURITY.md): `arguments` that is not an
 * object fails the SDK's request schema, answered as JSON-RPC -32603 (or -32602) naming "arguments".
 * Every other bad input is an isError result.
 */
const DOCUMENTED_PROTOCOL_ERRORS = new Set([-32602, -32603]);
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * 14);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return Math.floor(rand() * 200) - 100;
    case 3:
      return [1e308, -1e308, Number.MAX_SAFE_INTEGER, -0, 2 ** 53 + 1, 0.5][Math.floor(rand() * 6)];
    case 4:
      return "";
    case 5:
      return String.fromCharCode(...Array.from({ length: Math.floor(rand() * 20) }, () => Math.floor(rand() * 0x300)));
    case 6:
      return ["%0", "%1", "@0", "$0", "Enter", "C-c", "right", "text", "exit", "/tmp"][Math.floor(rand() * 10)];
    case 7:
      return "z".repeat(Math.floor(rand() * 5000));
    case 8:
    case 9: {
      if (depth > 40) return 0;
      // deep nesting: arrays inside arrays
      let v: unknown = randomValue(rand, depth + 10);
      for (let i = Math.floor(rand() * 60); i > 0; i--) v = [v];
      return v;
    }
    case 10:
    case 11:
      return depth > 40 ? {} : { [`k${Math.floor(rand() * 5)}`]: randomValue(rand, depth + 10) };
    default:
      return Array.from({ length: Math.floor(rand() * 4) }, () => (depth > 40 ? 1 : randomValue(rand, depth + 10)));
  }
}

/** Random arguments: each known property present with a random value or absent; sometimes an unknown key. */
function randomArgs(rand: () => number, schema: JsonSchema): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties ?? {})) {
    const wait = /timeout|_ms$|idle/.test(name);
    if (rand() < 0.5) {
      // Waits are capped so no call blocks for long: an absent timeout would mean the tool's default.
      if (wait) args[name] = 200;
      continue;
    }
    args[name] = randomValue(rand);
    if (wait && typeof args[name] === "number") args[name] = Math.min(200, Math.abs(args[name] as number) || 1);
  }
  if (rand() < 0.2) args[`extra_${Math.floor(rand() * 3)}`] = randomValue(rand);
  return args;
}

Deno.test(`fuzz: ${CALLS} random calls over every tool (seed ${SEED})`, async () => {
  console.log(`fuzz seed: ${SEED} (rerun with FUZZ_SEED=${SEED})`);
  // Every tool of profile all, at the default tier (kill_server and global settings stay out of reach).
  await using server = await TestServer.start({ args: ["--tools", "all"], env: { SHELL: "/bin/cat" } });
  const tools = (await server.client.listTools()).tools;
  const rand = mulberry32(SEED);
  const outcomes = { ok: 0, isError: 0, protocol: 0 };
  const unexpected: string[] = [];
  for (let sent = 0; sent < CALLS; sent += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, CALLS - sent) }, async () => {
      const tool = tools[Math.floor(rand() * tools.length)];
      // 2% send arguments that are not an object at all: a malformed request, answered by -32602.
      const args = rand() < 0.02 ? randomValue(rand) : randomArgs(rand, tool.inputSchema as JsonSchema);
      try {
        const result = CallToolResultSchema.parse(
          await server.client.request(
            { method: "tools/call", params: { name: tool.name, arguments: args as Record<string, unknown> } },
            CallToolResultSchema,
            { timeout: 30_000 },
          ),
        );
        if (result.isError) outcomes.isError++;
        else outcomes.ok++;
      } catch (error) {
        const code = (error as { code?: number }).code;
        const malformed = args !== undefined && !isObject(args);
        if (malformed && DOCUMENTED_PROTOCOL_ERRORS.has(code!) && /arguments/.test(String(error))) outcomes.protocol++;
        else unexpected.push(`${tool.name}(${JSON.stringify(args).slice(0, 120)}): ${(error as Error).message}`);
      }
    }));
  }
  console.log(`fuzz outcomes: ${JSON.stringify(outcomes)}`);
  assert.deepEqual(unexpected, []);
  assert.equal(outcomes.ok + outcomes.isError + outcomes.protocol, CALLS);
  // Still alive and answering.
  const { panes } = await server.call<{ panes: unknown[] }>("list_panes");
  assert.ok(Array.isArray(panes));
  assert.ok(!server.stderr.join("").includes("Uncaught"), server.stderr.join(""));
});
