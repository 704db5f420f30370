/**
 * Context cost of tools/list per profile, measured with a real tokenizer (js-tiktoken, o200k_base)
 * on the exact JSON a client receives. Run: deno run -A scripts/bench_tokens.ts
 */
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { loadConfig, type Profile, PROFILES, TOOL_GROUPS } from "../src/config.ts";
import { createServer } from "../src/mcp/server.ts";
import type { App } from "../src/app.ts";
import { ServerEvents } from "../src/engine/events/mod.ts";
import { ToolTable } from "../src/mcp/tool_table.ts";
import { ALL_TOOLS } from "../src/mcp/tools/mod.ts";

export const BUDGETS: Record<Profile, number> = { core: 1500, agent: 5000, all: 8000 };

const encoder = new Tiktoken(o200k);
export const countTokens = (text: string) => encoder.encode(text).length;

export interface ProfileCost {
  /** What --tools said: a profile or a comma list of groups. */
  profile: string;
  tools: number;
  total: number;
  instructions: number;
  perTool: { name: string; tokens: number }[];
}

/** tools/list of a `--tools` value at the most permissive tier (every tool listed), through a real client. */
export async function measureProfile(profile: string): Promise<ProfileCost> {
  const config = loadConfig(["doctor", "--tools", profile, "--safety", "destructive", "--state-dir", "/tmp/tw-bench"]);
  // tools/list never touches the rest; a connection subscribes to the event stream.
  const server = createServer({ config, events: new ServerEvents() } as unknown as App);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  try {
    const listed = await client.listTools();
    return {
      profile,
      tools: listed.tools.length,
      total: countTokens(JSON.stringify(listed)),
      instructions: countTokens(client.getInstructions() ?? ""),
      perTool: listed.tools.map((t) => ({ name: t.name, tokens: countTokens(JSON.stringify(t)) })),
    };
  } finally {
    await client.close();
    await server.close();
  }
}

/** The same listing as a 2026-era HTTP caller gets it: every tool also takes its `workspace` handle. */
export function measureWorkspaceListing(profile: string): number {
  const config = loadConfig(["doctor", "--tools", profile, "--safety", "destructive", "--state-dir", "/tmp/tw-bench"]);
  return countTokens(JSON.stringify({ tools: new ToolTable(config, ALL_TOOLS).list(true) }));
}

if (import.meta.main) {
  console.log("tools/list tokens (o200k_base, js-tiktoken 1.0.21), tier destructive\n");
  console.log("| profile | tools | tokens | budget | instructions |");
  console.log("|---|---|---|---|---|");
  const costs = [];
  for (const profile of PROFILES) {
    const cost = await measureProfile(profile);
    costs.push(cost);
    const budget = BUDGETS[profile];
    console.log(`| ${profile} | ${cost.tools} | ${cost.total} | ${budget} | ${cost.instructions} |`);
  }
  console.log("\n| profile | tokens, MCP 2026 over HTTP (every tool takes `workspace`) |\n|---|---|");
  for (const profile of PROFILES) console.log(`| ${profile} | ${measureWorkspaceListing(profile)} |`);
  console.log("\n| group (--tools GROUP) | tools | tokens |\n|---|---|---|");
  for (const group of TOOL_GROUPS) {
    const cost = await measureProfile(group);
    console.log(`| ${group} | ${cost.tools} | ${cost.total} |`);
  }
  console.log("\n| tool | tokens |\n|---|---|");
  for (const tool of costs[costs.length - 1].perTool) console.log(`| ${tool.name} | ${tool.tokens} |`);
}
